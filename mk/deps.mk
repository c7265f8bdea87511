# Debian packages the build needs (SPEC §6), installed when missing.
DEB_PACKAGES := verilator g++ make gcc-riscv64-unknown-elf picolibc-riscv64-unknown-elf \
                yosys python3-serial python3-numpy python3-pyelftools clang-14 libclang-rt-14-dev
DEPS_STAMP   := $(BUILD)/.deps-ok

# $(call deb_install,packages): apt-get installs those not yet installed,
# one install at a time (make -j2 may reach two; apt refuses a second).
define deb_install
	@mkdir -p $(BUILD)
	@flock $(BUILD)/.apt.lock sh -c '\
	missing=$$(for p in $(1); do dpkg -s $$p >/dev/null 2>&1 || echo $$p; done); \
	if [ -n "$$missing" ]; then \
	  echo "installing: $$missing"; \
	  if [ "$$(id -u)" = 0 ]; then SUDO=; else SUDO=sudo; fi; \
	  $$SUDO apt-get update -q && DEBIAN_FRONTEND=noninteractive $$SUDO apt-get install -y -q $$missing; \
	fi'
	@touch $@
endef

deps: $(DEPS_STAMP)
$(DEPS_STAMP): mk/deps.mk
	$(call deb_install,$(DEB_PACKAGES))
