"""Random placements of a material balance, shared by the Syzygy test scripts."""
import chess

PIECES = {"K": chess.KING, "Q": chess.QUEEN, "R": chess.ROOK, "B": chess.BISHOP,
          "N": chess.KNIGHT, "P": chess.PAWN}


def place_pieces(rng, white, black):
    """A board (White to move, maybe illegal) with the pieces `white` and `black` (e.g. "KR",
    "K") on random free squares, pawns off the first and last ranks."""
    board = chess.Board(None)
    for color, side in ((chess.WHITE, white), (chess.BLACK, black)):
        for letter in side:
            kind = PIECES[letter]
            squares = [s for s in chess.SQUARES if board.piece_at(s) is None
                       and not (kind == chess.PAWN and chess.square_rank(s) in (0, 7))]
            board.set_piece_at(rng.choice(squares), chess.Piece(kind, color))
    return board
