"""Per-sentence grounding: a citation is kept only when its evidence carries the sentence."""
from __future__ import annotations

import numpy as np

from core.answer.attribution import Support, render, split_answer
from core.answer.carrying import not_carried
from core.answer.faithfulness import borrows_definition
from core.answer.grounding import ABOUT_PROGRAM, TOGETHER, Grounded, evidence_citations, ground
from core.models import BookId, Chunk, ChunkId, ChunkRole, SectionId, Source

FOLKWAYS = "Folkways are norms for routine or casual interaction, such as how to dress."
MORES = "Mores are norms that embody the moral views and principles of a group."
MILGRAM = "Stanley Milgram studied obedience to authority in 1961."
ENERGY = "Energy is the capacity to do work."


def test_ground_keeps_carried_citations_and_greys_the_rest():
    raw = ("Folkways are norms for casual interaction [1]. Mores embody a group's moral views [1]. "
           "Laud Humphreys studied obedience [2].")
    g = Grounded({1: FOLKWAYS, 2: MORES, 3: MILGRAM})
    out = ground(split_answer(raw), g, question="What are folkways and mores?")
    assert [a.support for a in out] == [Support.SUPPORTED, Support.SUPPORTED, Support.WEAK]
    assert out[0].cited == (1,)
    assert out[1].cited == (2,), "the model's [1] did not carry it; evidence 2 does and is cited instead"
    assert out[2].cited == () and out[2].conflict == "name"
    assert render(out).startswith("Folkways are norms for casual interaction [1]. Mores embody a group's moral "
                                  "views [2].")


def test_an_uncited_sentence_is_given_the_evidence_most_like_it():
    sims = np.array([[0.1, 0.8]])
    out = ground(split_answer("Mores embody the moral views of a group."), Grounded({1: FOLKWAYS, 2: MORES}, sims))
    assert out[0].support is Support.SUPPORTED and out[0].cited == (2,)


def test_one_citation_per_evidence_sentence_each_with_its_own_quote():
    def chunk(cid: int, text: str, page: int) -> Chunk:
        return Chunk(id=ChunkId(cid), book_id=BookId("b"), section_id=SectionId(1), ordinal=cid, text=text,
                     role=ChunkRole.CONCEPT, page_start=page, page_end=page, printed_page_start=str(page),
                     printed_page_end=str(page), chapter_number="3", chapter_title="Culture", section_number="3.2",
                     section_title="Norms", token_count=5)
    sources = [Source(1, chunk(1, FOLKWAYS, 40), FOLKWAYS, "3.2 Norms, p. 40", quote=FOLKWAYS),
               Source(2, chunk(2, MORES, 41), MORES, "3.2 Norms, p. 41", quote=MORES)]
    out = ground(split_answer("Folkways are norms for casual interaction [1]. Mores embody moral views [2]."),
                 Grounded({1: FOLKWAYS, 2: MORES}))
    cites = evidence_citations([a for a in out if a.support is Support.SUPPORTED], sources)
    assert [(c.n, c.quote, c.page_start) for c in cites] == [(1, FOLKWAYS, 40), (2, MORES, 41)]
    assert cites[0].section == cites[1].section == "3.2" and cites[0].quote != cites[1].quote


def test_what_an_answer_says_of_the_students_own_program_is_greyed_as_not_the_books():
    question = "Does this program compile?\n```\nfn main() {\n    let total = 5;\n}\n```"
    out = ground(split_answer('Yes, this program compiles. It prints "5". Rust was made by aliens. Here is why.'),
                 Grounded({1: "A variable binding gives a name to a value."}), question=question)
    assert [a.support for a in out] == [Support.WEAK, Support.WEAK, Support.WEAK, Support.CONNECTIVE]
    assert [a.conflict == ABOUT_PROGRAM for a in out] == [True, True, False, False] and not out[0].cited


def test_a_citation_shows_its_evidence_sentence_whole_however_long():
    long = ("The Diagnostic and Statistical Manual of Mental Disorders, Fifth Edition, is a detailed listing of "
            "the features of every recognized psychological disorder, with the criteria a clinician checks, and it "
            "is published by the American Psychiatric Association (2013).")
    assert len(long) > 220
    chunk = Chunk(id=ChunkId(1), book_id=BookId("b"), section_id=SectionId(1), ordinal=1, text=long,
                  role=ChunkRole.CONCEPT, page_start=9, page_end=9, printed_page_start="9", printed_page_end="9",
                  chapter_number="15", chapter_title="Disorders", section_number="15.2", section_title="DSM",
                  token_count=40)
    out = ground(split_answer("The manual is published by the American Psychiatric Association [1]."),
                 Grounded({1: long}))
    cites = evidence_citations(out, [Source(1, chunk, long, "15.2 DSM, p. 9", quote=long)])
    assert cites[0].quote == long


def test_the_chip_shows_the_sentence_that_states_the_claim_not_the_neighbour_the_model_cited():
    evidence = {1: "Dendrites serve as input sites where signals are received from other neurons.",
                2: "Signals from other neurons reach the dendrites, and the axon then carries them onward."}
    out = ground(split_answer("Dendrites receive signals from other neurons [2]."), Grounded(evidence),
                 question="Which part of a neuron receives incoming signals?")
    assert out[0].support is Support.SUPPORTED and out[0].cited == (1,)


def test_a_sentence_about_the_pasted_program_is_greyed_even_when_a_book_sentence_shares_its_words():
    question = "What does this print?\n```\nfn main() {\n    println!(\"{}\", greet());\n}\n```"
    out = ground(split_answer("It prints the friendly greeting twice [1]. A function returns the value of its last expression [2]."),
                 Grounded({1: "This program prints the friendly greeting twice.",
                           2: "A function returns the value of its last expression implicitly."}), question=question)
    assert [(a.support, a.conflict) for a in out] == [(Support.WEAK, ABOUT_PROGRAM), (Support.SUPPORTED, "")]


def test_a_claim_only_words_of_two_sentences_carry_together_is_greyed():
    evidence = {1: "Air molecules are mostly nitrogen.", 2: "Short wavelengths look blue in a prism, so the sky does."}
    out = ground(split_answer("The sky is blue because air molecules scatter short wavelengths [1][2]."),
                 Grounded(evidence), question="Why is the sky blue?")
    assert out[0].support is Support.WEAK and not out[0].cited and out[0].conflict == TOGETHER
    assert not_carried(out[0].text, list(evidence.values()), "Why is the sky blue?") is None  # together they would


def test_a_sentence_using_a_question_word_the_books_never_use_is_greyed_and_not_bearing():
    from core.answer.grounding import BEARING, NEVER_USED, never_used_words
    initiative = ("For larger states, the time limit may pose a dilemma if the organization is trying to collect "
                  "more than 500,000 signatures from registered voters.")
    question = "How many signatures does a discharge petition need to force a bill out of committee?"
    answer = split_answer("The discharge petition requires 500,000 signatures from registered voters. "
                          "Initiatives may need more than 500,000 signatures.")
    g = Grounded({1: initiative})
    before = ground(answer, g, question=question)
    assert before[0].support is Support.SUPPORTED  # words shared with a sentence about something else
    after = ground(answer, g, question=question, unused_words=("discharge",))
    assert after[0].support is Support.WEAK and after[0].conflict == NEVER_USED and NEVER_USED not in BEARING
    assert never_used_words(after, ("discharge", "committee")) == ("discharge",)  # what a decline names
    assert after[1].support is Support.SUPPORTED and after[1].source == 1  # a sentence without it is judged as before


def test_a_named_term_the_books_never_mention_stays_not_bearing_when_it_is_also_an_unused_word():
    tests = ("The default behavior of cargo test is to run all the tests in parallel and capture output generated "
             "during test runs.")
    answer = split_answer("Cargo nextest runs all the tests in parallel and captures output generated during test runs.")
    out = ground(answer, Grounded({1: tests}), question="How is cargo nextest different from cargo test?",
                 unused=("nextest",), unused_words=("nextest",))
    assert out[0].support is Support.WEAK and out[0].conflict == "unused"


def test_a_sentence_leaning_on_a_greyed_one_is_greyed():
    evidence = {1: "Senators were originally appointed by state legislatures.",
                2: "In 1913 the Seventeenth Amendment allowed senators to be elected by popular vote."}
    answer = ("Under the Great Compromise each state would have one seat in Congress [1]. "
              "This was done through the Seventeenth Amendment, which allowed senators to be elected by popular vote "
              "[2].")
    out = ground(split_answer(answer), Grounded(evidence), question="How were seats decided by the Great Compromise?")
    assert [a.support for a in out] == [Support.WEAK, Support.WEAK]
    assert out[1].conflict == "leans on a greyed sentence" and not out[1].cited


def test_a_short_sentence_that_names_an_answer_is_checked_not_passed_over():
    evidence = {1: "Archival research involves studying existing data sets to answer research questions."}
    question = "What is it called when researchers go through old records that already exist?"
    named, nothing = ground(split_answer("It's called archival research [1]. Yes, there is a name for that."),
                            Grounded(evidence), question=question)
    assert named.support is Support.SUPPORTED and named.cited == (1,)
    assert nothing.support is Support.CONNECTIVE


def test_a_definition_given_another_terms_predicate_is_greyed_whichever_sentence_shares_its_words():
    scalar = "Kinetic energy is a scalar measured in joules."
    claim = "Kinetic energy is the capacity to do work, measured in joules."
    assert borrows_definition(claim, [ENERGY, scalar])
    assert not borrows_definition("Kinetic energy is a scalar measured in joules.", [ENERGY, scalar])
    # a claim that a thing is (not) of the kind the evidence defines rests on that definition
    salts = "Salts are ionic compounds made of cations and anions."
    assert not borrows_definition("SnCl4 is not a salt, since salts are ionic compounds made of cations and anions.",
                                  [salts])
    dendrites = "The neuron is a small information processor, and dendrites serve as input sites for signals."
    assert not borrows_definition("The part of a neuron that receives signals is the dendrites.", [dendrites])
    answer = split_answer(f"{claim} [2]")
    out = ground(answer, Grounded({1: ENERGY, 2: scalar}), question="What is kinetic energy?")
    assert out[0].support is Support.WEAK and out[0].conflict == "subject"


def test_a_heading_carries_no_claim():
    heading = "Calculating Molar Concentrations from the Mass of Solute"
    claim = "To work out the molarity of a solution, you need to know the mass of solute and its volume."
    question = "What do I need to know to work out the molarity of a solution?"
    assert not_carried(claim, [heading], question) == "heading"
    molarity = "The molarity of a solution is found from the mass of solute, its molar mass and the volume."
    assert not_carried(claim, [heading, molarity], question) is None  # the sentence beside it still counts
    out = ground(split_answer(claim), Grounded({1: heading}), question=question)
    assert out[0].support is Support.WEAK and out[0].conflict == "heading"


SILVER = ("Silver chloride is a sparingly soluble ionic solid; when it is added to water, it dissolves slightly and "
          "produces a very dilute solution of its ions in equilibrium with undissolved silver chloride.")
FIT = ("The fit command fits a user-supplied real-valued expression to a set of data points, using the nonlinear "
       "least-squares Marquardt-Levenberg algorithm.")


def test_a_yes_or_no_verdict_keeps_its_chip_only_when_the_judge_finds_its_sentence_makes_the_claim_true():
    from core.answer.grounding import BEARING, VERDICT
    g = Grounded({1: SILVER, 2: FIT})
    asked = []

    def judge(quote: str, claim: str) -> float:  # a stand-in for the chat model's odds
        asked.append((quote, claim))
        p = 0.6 if "Marquardt" in claim else 0.4
        return 1 - p if claim.startswith("It is not true") else p

    fit = ground([(0, "Yes, gnuplot's fit command uses the Marquardt-Levenberg method.", ())], g,
                 question="Does gnuplot's fit command use the Marquardt-Levenberg method?", judge=judge)
    assert fit[0].support is Support.SUPPORTED and fit[0].source == 2
    assert asked[:2] == [(FIT, "Gnuplot's fit command uses the Marquardt-Levenberg method."),
                     (FIT, "It is not true that Gnuplot's fit command uses the Marquardt-Levenberg method.")]
    # The book's sentence shares every word of the wrong "yes"; the judge finds the claim no likelier than its
    # denial, so it is greyed, and an answer of only such a verdict does not bear on the question (it is declined).
    silver = ground([(0, "Yes, solid silver chloride can dissolve completely in plain water.", ())], g,
                    question="Can solid silver chloride ever dissolve completely in plain water?", judge=judge)
    assert silver[0].support is Support.WEAK and silver[0].conflict == VERDICT and VERDICT not in BEARING
    # Likelier than its denial is not enough (the model must find the claim more likely true than false), nor is
    # more likely true than false when the denial is likelier still.
    for odds, denied in ((0.3, 0.2), (0.6, 0.7)):
        assert ground([(0, "Yes, gnuplot's fit command uses the Marquardt-Levenberg method.", ())], g,
                      question="Does gnuplot's fit command use the Marquardt-Levenberg method?",
                      judge=lambda quote, claim, o=odds, d=denied: d if claim.startswith("It is not true") else o
                      )[0].conflict == VERDICT
    # With no model to ask, a verdict is never cited on words alone.
    unjudged = ground([(0, "Yes, gnuplot's fit command uses the Marquardt-Levenberg method.", ())], g,
                      question="Does gnuplot's fit command use the Marquardt-Levenberg method?")
    assert unjudged[0].conflict == VERDICT


QUID_FORM = "One form of sexual harassment is called quid pro quo."
QUID_MEANS = "Quid pro quo harassment is when a boss offers rewards such as a raise in exchange for favors."
QUID_CASE = "Quid pro quo harassment was named after courts heard of a boss who offered a raise in exchange for favors."


def test_the_chip_is_the_first_carrying_sentence_the_chip_judge_reads_as_stating_the_claim():
    from core.answer.grounding import BEARING, UNSTATED
    g = Grounded({1: QUID_CASE, 2: QUID_MEANS, 3: QUID_FORM},
                 np.array([[0.9, 0.5, 0.1], [0.1, 0.1, 0.1], [0.1, 0.1, 0.9]]))
    asked = []

    def states(quote: str, claim: str) -> float:  # a stand-in for the chat model's odds
        asked.append(quote)
        return 0.8 if quote == QUID_MEANS else 0.3
    raw = ("Quid pro quo harassment is a boss offering a raise for favors [1]. Great question! "
           "Quid pro quo is a form of sexual harassment [3].")
    out = ground(split_answer(raw), g, question="What is quid pro quo?", chip_judge=states)
    # Evidence 1 is the most alike and carries the words, but the judge reads it as not stating the claim: the next
    # carrying sentence, which it reads as stating it, is the chip.
    assert out[0].support is Support.SUPPORTED and out[0].cited == (2,)
    assert out[1].support is Support.CONNECTIVE  # not judged
    # Only evidence 3 carries the last sentence by words; the judge reads it as not stating it: greyed, bearing.
    assert out[2].support is Support.WEAK and out[2].conflict == UNSTATED and UNSTATED in BEARING
    assert asked == [QUID_CASE, QUID_MEANS, QUID_FORM]


def test_even_odds_keep_the_chip_and_a_sentence_after_an_unstated_one_keeps_its_own():
    g = Grounded({1: QUID_FORM, 2: QUID_MEANS})
    raw = "Quid pro quo is a form of sexual harassment [1]. This means a boss offers a raise for favors [2]."
    out = ground(split_answer(raw), g, question="What is quid pro quo?",
                 chip_judge=lambda quote, claim: 0.5 if "form" in claim else 0.9)
    assert [a.cited for a in out] == [(1,), (2,)]
    out = ground(split_answer(raw), g, question="What is quid pro quo?",
                 chip_judge=lambda quote, claim: 0.1 if "form" in claim else 0.9)
    assert out[0].support is Support.WEAK and out[1].cited == (2,), "judged with its own chip, not greyed as an orphan"


def test_the_judge_reads_a_sentence_that_leans_on_the_one_before_with_that_one():
    before = "Technically R is an expression language with a very simple syntax."
    leaning = "It is case sensitive as are most UNIX based packages, so A and a are different symbols."
    g = Grounded({1: leaning}, leaned={1: before})
    asked = []

    def judge(quote: str, claim: str) -> float:
        asked.append(quote)
        return 0.3 if claim.startswith("It is not true") else 0.8
    out = ground([(0, "Yes, R is case sensitive, so A and a are different symbols.", ())], g,
                 question="Is R case sensitive?", judge=judge)
    assert out[0].support is Support.SUPPORTED and out[0].cited == (1,)
    assert out[0].quote == leaning, "the chip shows the sentence itself"
    assert asked == [f"{before} {leaning}"] * 2
    states = []
    ground([(0, "R is case sensitive, so A and a are different symbols.", ())], g, question="Is R case sensitive?",
           chip_judge=lambda quote, claim: states.append(quote) or 0.9)
    assert states == [f"{before} {leaning}"]


def test_a_sentence_copied_from_its_chip_is_not_put_to_the_judge():
    from core.answer.grounding import copied
    assert copied("Quid pro quo harassment is when a boss offers rewards.", QUID_MEANS)
    assert not copied("Quid pro quo harassment is when a boss offers favors.", QUID_MEANS)  # not a run of its words
    assert not copied("Quid pro quo.", QUID_MEANS)  # too short to state anything
    asked = []
    out = ground([(0, "Quid pro quo harassment is when a boss offers rewards such as a raise.", ())],
                 Grounded({1: QUID_MEANS}), question="What is quid pro quo?",
                 chip_judge=lambda quote, claim: asked.append(quote) or 0.1)
    assert out[0].cited == (1,) and asked == []
