#!/usr/bin/env python3
"""Turns a terminal capture with colours (`tmux capture-pane -e -p`) into an HTML page, so that
Chromium can take a screenshot of what a person sees (README's terminal pictures).

Usage: tmux capture-pane -e -p -t SESSION | scripts/ansi_to_html.py > screen.html
"""
import html
import re
import sys

BASIC = ["#000000", "#cd3131", "#0dbc79", "#e5e510", "#2472c8", "#bc3fbc", "#11a8cd", "#e5e5e5",
         "#666666", "#f14c4c", "#23d18b", "#f5f543", "#3b8eea", "#d670d6", "#29b8db", "#ffffff"]


def color256(n):
    if n < 16:
        return BASIC[n]
    if n < 232:
        n -= 16
        steps = [0, 95, 135, 175, 215, 255]
        return "#%02x%02x%02x" % (steps[n // 36], steps[(n // 6) % 6], steps[n % 6])
    v = 8 + (n - 232) * 10
    return "#%02x%02x%02x" % (v, v, v)


def main():
    text = sys.stdin.read()
    fg, bg, bold, dim, rev = None, None, False, False, False
    out = []
    for part in re.split(r"(\x1b\[[0-9;]*m)", text):
        if part.startswith("\x1b["):
            codes = [int(c) if c else 0 for c in part[2:-1].split(";")]
            i = 0
            while i < len(codes):
                c = codes[i]
                if c == 0:
                    fg, bg, bold, dim, rev = None, None, False, False, False
                elif c == 1:
                    bold = True
                elif c == 2:
                    dim = True
                elif c == 7:
                    rev = True
                elif c == 22:
                    bold = dim = False
                elif c == 27:
                    rev = False
                elif 30 <= c <= 37:
                    fg = BASIC[c - 30]
                elif 90 <= c <= 97:
                    fg = BASIC[c - 90 + 8]
                elif 40 <= c <= 47:
                    bg = BASIC[c - 40]
                elif c in (38, 48) and i + 1 < len(codes):
                    if codes[i + 1] == 2 and i + 4 < len(codes):
                        col = "#%02x%02x%02x" % tuple(codes[i + 2:i + 5])
                        i += 4
                    elif codes[i + 1] == 5 and i + 2 < len(codes):
                        col = color256(codes[i + 2])
                        i += 2
                    else:
                        col = None
                    if c == 38:
                        fg = col
                    else:
                        bg = col
                elif c == 39:
                    fg = None
                elif c == 49:
                    bg = None
                i += 1
            continue
        if not part:
            continue
        f, b = fg or "#d4d4d4", bg or "#1e1e1e"
        if rev:
            f, b = b, f
        style = "color:%s;background:%s;%s%s" % (
            f, b, "font-weight:bold;" if bold else "", "opacity:0.6;" if dim else "")
        # One fixed-width cell per character, as a terminal draws them: chess glyphs from a
        # fallback font would otherwise shift the rest of the line.
        cells = "".join(
            ch if ch == "\n" else '<span class="c">%s</span>' % html.escape(ch) for ch in part)
        out.append('<span style="%s">%s</span>' % (style, cells))
    print('<!doctype html><meta charset="utf-8"><style>.c{display:inline-block;width:1ch;'
          'text-align:center;overflow:visible}</style><body style="margin:0;background:#1e1e1e">'
          '<pre style="font:16px/1.15 \'DejaVu Sans Mono\',monospace;margin:8px;color:#d4d4d4">'
          + "".join(out) + "</pre></body>")


if __name__ == "__main__":
    main()
