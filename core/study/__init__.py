"""Study tools: practice from the book's own exercises, flashcards with spaced repetition, generated
quizzes whose answers are verified against their source passage, and chapter guides.

Pure functions over ``Chunk`` records (tested directly); persistence goes through ``Library``.
"""
