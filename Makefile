# Makefile: the build convention of OpenBench (distributed testing). `make [EXE=name]` builds
# the release binary with cargo (`CARGO`, default cargo) and copies it to EXE (default
# chimera). OpenBench may also pass CC and CXX; the build has no C code and ignores them.

EXE ?= chimera
CARGO ?= cargo
TARGET_DIR := $(if $(CARGO_TARGET_DIR),$(CARGO_TARGET_DIR),target)
ifeq ($(OS),Windows_NT)
    SUFFIX := .exe
else
    SUFFIX :=
endif

.PHONY: all
all:
	$(CARGO) build --release --bin chimera
	cp "$(TARGET_DIR)/release/chimera$(SUFFIX)" "$(EXE)"
