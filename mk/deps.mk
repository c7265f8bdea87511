# Debian packages the build needs (SPEC §6), installed when missing.
DEB_PACKAGES := verilator g++ make gcc-riscv64-unknown-elf picolibc-riscv64-unknown-elf \
                yosys python3-serial python3-numpy clang-14 libclang-rt-14-dev
DEPS_STAMP   := $(BUILD)/.deps-ok

deps: $(DEPS_STAMP)
$(DEPS_STAMP):
	@missing=$$(for p in $(DEB_PACKAGES); do dpkg -s $$p >/dev/null 2>&1 || echo $$p; done); \
	if [ -n "$$missing" ]; then \
	  echo "installing: $$missing"; \
	  if [ "$$(id -u)" = 0 ]; then SUDO=; else SUDO=sudo; fi; \
	  $$SUDO apt-get update -q && DEBIAN_FRONTEND=noninteractive $$SUDO apt-get install -y -q $$missing; \
	fi
	@mkdir -p $(BUILD) && touch $@
