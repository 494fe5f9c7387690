# The two commands of the README: `make run` and `make test`. Both set everything up first.
.PHONY: run test test-fast test-webgpu lint bootstrap bench screenshots

bootstrap:
	@bash scripts/bootstrap.sh

run: bootstrap
	.venv/bin/fpinspector

test: bootstrap
	QT_QPA_PLATFORM=offscreen .venv/bin/python -m pytest -q -p no:cacheprovider
	@echo "== GPU tests again on Mesa softpipe (GL 3.3, fragment path only)"
	FPINSPECTOR_TEST_DRIVER=softpipe QT_QPA_PLATFORM=offscreen .venv/bin/python -m pytest -q -p no:cacheprovider tests/gpu -m "not slow" -k "not wgpu"

# The WebGPU backend's tests alone, required to find a Vulkan adapter (lavapipe here; CI runs
# them inside `make test` with FPINSPECTOR_TEST_API=vulkan, see .ci/run).
test-webgpu: bootstrap
	FPINSPECTOR_TEST_API=vulkan QT_QPA_PLATFORM=offscreen .venv/bin/python -m pytest -q -p no:cacheprovider tests/gpu -k wgpu

# The fast tier: nothing that needs OpenGL or takes more than a few seconds. GL is switched
# off here, so a test that needs it and lacks the gpu marker fails in this tier.
test-fast: bootstrap
	FPINSPECTOR_GL_BACKEND=off-in-the-fast-tier QT_QPA_PLATFORM=offscreen \
		.venv/bin/python -m pytest -q -p no:cacheprovider -m "not gpu and not slow"

# ruff (pyflakes, pycodestyle errors, import order, pyupgrade) and mypy on model and gpu.
lint: bootstrap
	.venv/bin/ruff check fpinspector tests benchmarks scripts
	.venv/bin/mypy
	@ignored="$$(git ls-files -ci --exclude-standard 2>/dev/null)"; \
	if [ -n "$$ignored" ]; then echo "tracked files that .gitignore lists:"; echo "$$ignored"; exit 1; fi

bench: bootstrap
	for b in benchmarks/bench_*.py; do echo "== $$b"; QT_QPA_PLATFORM=offscreen .venv/bin/python $$b || exit 1; done

# Screenshots of the real app in a real window under its own Xvfb (README images).
screenshots: bootstrap
	.venv/bin/python -m fpinspector.ui.shell.screenshots docs/screenshots --xvfb
