#!/usr/bin/env bash
# Installs the Python packages distributed/ needs: Ray and Ray Serve (the
# driver, lamina_ray.py, and the render service, lamina_serve.py), from PyPI,
# when `import ray.serve` fails. Safe to run again: it does nothing when
# they are there. The tests that run the driver call it; it needs python3
# and pip (scripts/install-deps.sh installs Debian's).
set -euo pipefail
python=${PYTHON:-python3}
# One pinned version: Serve's deployment options (backpressure_config) are
# recent.
package="ray[serve]==2.60.0"
"$python" -c "import ray.serve" 2>/dev/null && exit 0
echo "Installing: $package (PyPI)" >&2
# Debian's own Python refuses pip installs outside a virtual environment
# (PEP 668); a Python the user installed (pyenv, a venv) takes them as is.
if ! "$python" -m pip install --quiet --disable-pip-version-check "$package" 2>/tmp/lamina-pip.$$; then
  if grep -q externally-managed /tmp/lamina-pip.$$; then
    "$python" -m pip install --quiet --disable-pip-version-check --user --break-system-packages "$package"
  else
    cat /tmp/lamina-pip.$$ >&2
    rm -f /tmp/lamina-pip.$$
    exit 1
  fi
fi
rm -f /tmp/lamina-pip.$$
"$python" -c "import ray.serve"
