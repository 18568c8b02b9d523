# OpenBench-style build: `make EXE=path` builds the release binary (the default net is embedded)
# and copies it to that path. `fianchetto bench` prints `N nodes M nps` last.
EXE ?= fianchetto
CARGO ?= cargo

.PHONY: all clean

all:
	$(CARGO) build --release
	cp target/release/fianchetto $(EXE)

clean:
	$(CARGO) clean
