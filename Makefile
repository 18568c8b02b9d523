# OpenBench-style build: `make EXE=path` builds the release binary with the default net
# embedded and copies it to `path`; `make EXE=path EVALFILE=net.fnn` embeds that net instead
# (checked first: the default build must load it with `EvalFile`). `fianchetto bench` prints
# `N nodes M nps` last. `make TUNE=1` builds for tuning: every search constant is a UCI spin
# option and the `spsa` command prints them in OpenBench's SPSA input format.
EXE ?= fianchetto
EVALFILE ?=
TUNE ?=
CARGO ?= cargo
FEATURES := $(if $(filter 1 yes true,$(TUNE)),--features tune,)

.PHONY: all clean

all:
ifneq ($(EVALFILE),)
	FIANCHETTO_EVALFILE= $(CARGO) build --release $(FEATURES)
	@printf 'setoption name EvalFile value %s\nisready\nquit\n' "$(abspath $(EVALFILE))" \
		| target/release/fianchetto | grep -q '^info string EvalFile .* loaded (' \
		|| { echo "EVALFILE=$(EVALFILE) is not a net this build reads" >&2; exit 1; }
	FIANCHETTO_EVALFILE="$(abspath $(EVALFILE))" $(CARGO) build --release $(FEATURES)
else
	FIANCHETTO_EVALFILE= $(CARGO) build --release $(FEATURES)
endif
	cp target/release/fianchetto $(EXE)

clean:
	$(CARGO) clean
