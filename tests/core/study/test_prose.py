"""Whole sentences: splitting, code paragraphs, and the automatic check every guide line passes."""
from __future__ import annotations

from core.study.prose import is_code, line_problem, narrative, prose_sentences, split_sentences, standalone


def test_split_keeps_abbreviations_and_initials_but_splits_after_a_symbol():
    assert split_sentences("Use a matrix, e.g. a table. It is fine.") == ["Use a matrix, e.g. a table.", "It is fine."]
    assert split_sentences("It was B. F. Skinner who said so. Then he left.") == \
        ["It was B. F. Skinner who said so.", "Then he left."]
    assert split_sentences("It decomposes the matrix M. The result is a list.") == \
        ["It decomposes the matrix M.", "The result is a list."]
    assert split_sentences("It depends on its argument. diag(v) gives a matrix.") == \
        ["It depends on its argument.", "diag(v) gives a matrix."]


def test_code_paragraphs_and_sentences_continued_after_a_page_break_are_skipped():
    assert is_code("> x <- c(1, 2)\n> x\n[1] 1 2") and is_code("fn main() {\n    let x = 5;\n}")
    assert not is_code("A vector is an ordered collection of numbers.")
    text = ("A vector holds numbers of the same\n\nmode and length. Vectors are simple.\n\n> x <- 1\n\n"
            "The operator <- assigns a value.")
    found = [s for s, _ in prose_sentences(text)]
    assert found[-2:] == ["Vectors are simple.", "The operator <- assigns a value."]
    assert not any(s.startswith("mode and length") for s in found)  # the tail of a sentence cut by a page break
    assert line_problem(found[0]) == "no terminal punctuation"  # and its head is no sentence either


def test_line_problem_names_what_is_wrong():
    heading = "Matrix multiplication"
    assert line_problem("The operator %*% is used for matrix multiplication.", [heading]) is None
    assert line_problem("Matrix multiplication is used for matrix multiplication.") == "tautology"
    assert line_problem("The values are recycled (see the rule below and", []) == "no terminal punctuation"
    assert line_problem("The values (see the rule are recycled in order.") == "unmatched bracket or quote"
    assert line_problem("and so the first subscript moves fastest of all.") == "does not start a sentence"
    assert line_problem("Matrix multiplication The operator is used for products.", [heading]) == \
        "heading run into a sentence"
    assert line_problem("Matrix multiplication.", [heading]) in ("too short", "a copy of the heading")
    assert line_problem("In such cases the smaller matrix is used, as follows:") == "no terminal punctuation"
    assert line_problem("See [Appendix A][appendix_a]<!-- ignore --> for the list of keywords.") == "markup"
    assert line_problem("As shows, the major sensory organs sit inside the inner ear.") == "a figure reference lost"
    assert line_problem("As you can see in , the asteroid belt lies between Mars and Jupiter.") == \
        "a figure reference lost"


def test_standalone_sentences_do_not_lean_on_the_one_before():
    assert standalone("A dimension vector is a vector of non-negative integers.")
    assert not standalone("This is known as the difference threshold.")
    assert not standalone("However, the best way is crossprod(x).")
    assert not standalone("Other functions are available, as we shall see in Section 5.4.")
    # a referent in another sentence (the guide's hand check: "this Virginia Plan", "His great contribution")
    for s in ("Delegates from small states objected to this Virginia Plan.", "His great contribution was a theory.",
              "For one, each participant must sign a consent form.", "Methods like this are called getters.",
              "In similar experiments, the ray was deflected.", "In both cases, the disturbance travels outward.",
              "The left structure depicts a carbon atom bonded to three oxygen atoms.",
              "More often than not, however, the top-two system is used in state elections.",
              "A vector is a similar collection type that can grow or shrink.",
              "The energy levels we have been discussing are like rungs of a ladder."):
        assert not standalone(s), s
    assert standalone("A catalyst is a substance that speeds up a reaction without being used up.")


def test_a_sentence_talking_to_the_reader_is_narrative():
    for s in ("Let’s see what happens.", "We've seen that ownership moves.", "You're now ready.", "I ran it twice.",
              "It tells us the size."):
        assert narrative(s), s
    assert not narrative("A vector is a growable array.") and not narrative("Users of the crate see it.")


def test_a_capital_after_a_heading_starts_a_sentence_a_lowercase_word_continues_one():
    text = ("SOCIALIZATION AGENTS\n\nAn agent of political socialization is a source of political information.\n\n"
            "A vector holds numbers of the same\n\nmode and length. Vectors are simple.")
    found = [s for s, _ in prose_sentences(text)]
    assert "An agent of political socialization is a source of political information." in found  # after a heading
    assert not any(s.startswith("mode and length") for s in found)  # the rest of a sentence a page break cut


def test_a_pointer_to_a_video_or_a_website_is_no_sentence_to_study():
    for s in ("Watch this video about the epigenetics of twin studies to learn more.",
              "Click here to learn more about the process of creating algae biofuel.",
              "Visit this website for more information about lithium ion batteries.",
              "This animation shows the phases of Venus as it orbits the Sun."):
        assert line_problem(s) == "a pointer to other material", s
    assert line_problem("Use the function seq() to generate a sequence of numbers.") is None
    assert not standalone("Quasars are much more efficient than that.")  # compared with the sentence before
    assert standalone("Quasars are much brighter than galaxies.")


def test_a_footnote_or_a_lost_table_name_inside_a_line_makes_it_no_sentence():
    # the session-23 hand check of 144 guide points: footnotes glued on and sentences restarting inside
    assert line_problem("Most members of the party returned to the Republican Party.1985.") == "two sentences glued"
    assert line_problem("Such committees that may spend without limit are called super PACs.Conor M. Dowling.") == \
        "two sentences glued"
    assert line_problem("Federal Election Commission, 572 U.S. 185 (2014). cases opened the door to more money.") == \
        "a sentence restarts inside"
    assert line_problem("Of special interest is water ice near the lunar South Pole. lists the recent missions.") == \
        "a sentence restarts inside"
    for fine in ("Many resources, e.g. the library, are free to every student in the school.",
                 "Prices rose by 5 percent, etc. and the market reacted badly to the news.",
                 "The U.S. government passed the law in 1990 after a long debate in the Senate.",
                 "The value of pi is approximately 3.14159 and gives a circle's area.",
                 "Call `std::io.Read` once the terminal has some input for the buffer.",
                 "The ordering switches because of s-p mixing. s-p mixing does not create new orbitals."):
        assert line_problem(fine) in (None, "no verb"), fine
    assert split_sentences("In Citizens United v. Federal Election Commission, the Court ruled. It was 2010.") == \
        ["In Citizens United v. Federal Election Commission, the Court ruled.", "It was 2010."]


def test_a_referent_left_in_the_sentence_before_is_found_in_more_places():
    for s in ("Because of this, the P-T relationship is known as Amontons’s law.",
              "Neopentane molecules are the most compact of the three, with the least surface area.",
              "Supporters experience remorse when their least-favorite candidate wins instead.",
              "In some cases, their aim is to influence the budget allocated to a policy.",
              "At full phase, it shows almost no topographic detail.",
              "All have problems, and they have been supplanted by the giant impact hypothesis.",
              "The rotation period, determined from the motion of such “radar features”, is 243 days.",
              "The Tharsis volcanoes were active at that time.", "Part of the problem is the low temperature.",
              "The return type has to be a `Result` so that it is compatible with this `return`."):
        assert not standalone(s), s
    for s in ("When water freezes, it expands and becomes less dense than liquid water.",
              "The two major parties dominate American politics at every level.",
              "Most mammals have hair and feed their young with milk."):
        assert standalone(s), s


def test_a_problem_set_to_the_student_and_its_answer_are_not_taught():
    text = ("A gas fills its container.\n\nCheck Your Learning\n\nSulfur dioxide is an intermediate in the making "
            "of sulfuric acid. What volume of SO_2 is produced?\n\nAnswer:\n\nThe critical temperature of ammonia is "
            "405.5 K.\n\nGreenhouse Gases\n\nThe atmosphere keeps the earth habitable.\n\nCyclopropane is 85.7% "
            "carbon by mass. Find the empirical formula.\n\nFinding a treatment is hard for many people.")
    found = [s for s, _ in prose_sentences(text)]
    assert "A gas fills its container." in found and "The atmosphere keeps the earth habitable." in found
    assert "Finding a treatment is hard for many people." in found  # "Finding" sets no task
    assert not any(w in s for s in found for w in ("Sulfur", "ammonia", "Cyclopropane"))
