"""Answer: retrieved passages → a streamed, cited answer from the local model, or an honest refusal.

Owns: the tutor (``tutor.Tutor.ask``: follow-up rewriting, retrieval, refusal, prompt, streaming,
attribution), the prompt (``prompt``), citation markers in the model's text (``markers``), which
source supports which sentence and the citations shown (``attribution``), replies without a model
(``replies``: refusal, extractive answer), follow-up questions (``followup``), the passages an answer
is built from (``preparation``) and checks that a sentence does not misstate its source (``faithfulness``).
Offers: ``tutor.Tutor``, ``tutor.collect``, ``preparation.AnswerSettings``.
May import: ``core.retrieval``, ``core.llm`` and the layers below; never ``core.study`` or
``core.library`` (the tutor is handed a library).
"""
