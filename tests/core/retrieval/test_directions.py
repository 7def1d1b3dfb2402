from core.retrieval.directions import directions


def test_direction_words_fall_into_their_families():
    assert directions("Pressure rises as the volume decreases.") == {"up", "down"}
    assert directions("The vote is counted after the polls close.") == {"after"}
    assert directions("The longest vector sets the length.") == {"up"}


def test_pointing_at_what_comes_next_in_the_text_is_no_direction():
    assert directions("You can use the following code: args <- commandArgs(TRUE)") == set()
    assert directions("The process is as follows: votes are added up.") == set()
    assert directions("To fix it, follow these steps:") == set()
    assert directions("Prices were set the following year.") == {"after"}  # a time still is one
    assert directions("The eclipse follows the new moon.") == {"after"}
