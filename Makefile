# Two commands do everything on a fresh Debian machine with Python 3.11:
#   make demo   set up .venv and run Lantern on the bundled sample book
#   make test   set up .venv, run the whole test suite, build and smoke-test the Linux app
SHELL := /bin/bash
VENV := .venv
PY := $(VENV)/bin/python
DEMO_LIBRARY ?= .lantern-demo
DEMO_QUESTION ?= What is the work-energy theorem?
DEBIAN_PDFS ?= .cache/debian-pdfs

.PHONY: setup demo test test-fast debian-pdfs translations clean

setup:
	@packaging/setup-venv.sh

demo: setup
	@$(VENV)/bin/lantern --library $(DEMO_LIBRARY) demo --ask "$(DEMO_QUESTION)"
	@if [ -n "$${DISPLAY}$${WAYLAND_DISPLAY}" ] || [ "$$(uname)" = Darwin ]; then \
		echo "Opening the desktop app on $(DEMO_LIBRARY) …"; \
		$(VENV)/bin/lantern-desktop --library $(DEMO_LIBRARY) --import-sample; \
	else \
		echo "(no display here: on a desktop, run  $(VENV)/bin/lantern-desktop --library $(DEMO_LIBRARY)  to open the app)"; \
	fi

# Real PDFs from Debian packages (R-intro, octave) used by the real-data tests and benchmarks.
debian-pdfs:
	@packaging/fetch-debian-pdfs.sh $(DEBIAN_PDFS)

test: setup debian-pdfs
	@$(VENV)/bin/lint-imports --config pyproject.toml
	@LANTERN_DEBIAN_PDFS=$(DEBIAN_PDFS) LANTERN_REQUIRE_REAL_DATA=1 QT_QPA_PLATFORM=offscreen \
		$(PY) -m pytest -q -p no:cacheprovider
	@packaging/build-linux  # the frozen app, built and smoke-tested offline (~4 min)

test-fast:
	@QT_QPA_PLATFORM=offscreen $(PY) -m pytest -q -x -m "not realmodel and not realdata"

# The interface's translations: collect new strings into resources/i18n/*.ts, translate them (pyside6-linguist or
# a text editor), then compile the .qm files the app loads (desktop/i18n.py).
translations: setup
	@$(VENV)/bin/pyside6-lupdate desktop/*.py core/study/render.py -ts $(wildcard resources/i18n/lantern_*.ts)
	@for ts in resources/i18n/lantern_*.ts; do $(VENV)/bin/pyside6-lrelease -silent "$$ts" -qm "$${ts%.ts}.qm"; done

clean:
	rm -rf $(DEMO_LIBRARY) .cache build dist *.egg-info
