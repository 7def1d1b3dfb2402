"""The local chat model: GGUF weights run by llama-cpp-python on one owner thread.

Owns: the model facade (``model.LocalModel``: streaming, cancel, prefix cache, JSON-constrained
output), settings, errors and backend protocols (``settings``), the llama.cpp backend and chat
templates (``llama``), the owner thread and its streams (``worker``), the catalogue of models carried
by PyPI packages (``catalog``) and GGUF header reading (``gguf``).
Offers: ``model.LocalModel``, ``settings.LLMSettings``, ``catalog.CATALOG``/``locate``.
May import: only ``core.progress``, ``core.paths``, ``core.models``, ``core.errors``.  A new model is a
``catalog.ModelEntry``; a new backend implements ``settings.Runtime``.
"""
