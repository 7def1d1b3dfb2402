"""Per-sentence grounding: a citation is kept only when its evidence carries the sentence."""
from __future__ import annotations

import numpy as np

from core.answer.attribution import Support, render, split_answer
from core.answer.faithfulness import borrows_definition
from core.answer.grounding import (ABOUT_PROGRAM, TOGETHER, Grounded, directions, evidence_citations,
                                  ground, not_carried)
from core.models import BookId, Chunk, ChunkId, ChunkRole, SectionId, Source

FOLKWAYS = "Folkways are norms for routine or casual interaction, such as how to dress."
MORES = "Mores are norms that embody the moral views and principles of a group."
PRESSURE = "The pressure of a gas increases as its volume decreases at constant temperature."
MILGRAM = "Stanley Milgram studied obedience to authority in 1961."


def test_a_sentence_its_evidence_states_is_carried():
    assert not_carried("Folkways are norms for casual interaction like dressing.", [FOLKWAYS]) is None
    assert not_carried("Milgram studied obedience to authority.", [MILGRAM]) is None


def test_what_the_evidence_does_not_carry_is_named():
    assert not_carried("Folkways are norms that embody moral views.", [MORES]) == "subject"
    assert not_carried("Milgram studied obedience in 1971.", [MILGRAM]) == "number"
    assert not_carried("Laud Humphreys studied obedience to authority.", [MILGRAM]) == "name"
    assert not_carried("Folkways are not norms for casual interaction.", [FOLKWAYS]) == "negation"
    assert not_carried("The pressure of a gas decreases as its volume increases.", [PRESSURE]) is None  # both
    assert not_carried("Gas pressure drops when the volume falls at constant temperature.",
                       ["The pressure of a gas depends on its volume at constant temperature."]) == "direction"
    assert not_carried("Photosynthesis turns sunlight into sugar inside chloroplasts.", [FOLKWAYS]) == "content"
    assert directions("It rose before noon") == {"up", "before"}
    # a comparative is carried by the superlative of the same direction (R-intro: "longer" / "the longest vector")
    assert directions("the longest vector") == directions("the longer one") == {"up"}
    assert not_carried("The shorter vector is recycled to match the length of the longer vector.",
                       ["Shorter vectors are recycled until they match the length of the longest vector."]) is None


def test_the_question_counts_as_carried_text():
    assert not_carried("Humphreys did not study this.", [MILGRAM], question="Did Humphreys study obedience?") \
        != "name"


def test_a_restated_question_is_not_carried_by_an_unrelated_sentence():
    question = "What does a galaxy's Sérsic index tell you about its brightness profile?"
    unrelated = "For now, we will describe how astronomers specify the apparent brightness of stars."
    about = "The Sérsic index of a galaxy describes how steeply its brightness profile falls from the centre."
    assert not_carried("The Sérsic index tells you about the brightness profile of a galaxy.", [unrelated],
                       question) == "echo"
    assert not_carried("The Sérsic index tells you about the brightness profile of a galaxy.", [about],
                       question) is None


def test_a_sentence_about_the_contrasted_concept_rests_on_the_contrast_phrase_only():
    contrast = ("In contrast to classical and operant conditioning, in which learning occurs only through direct "
                "experience, observational learning is the process of watching others and then imitating what they do.")
    question = "What is operant conditioning?"
    # the main clause is about observational learning: it does not carry a claim about operant conditioning
    assert not_carried("It involves observing others and then imitating what they do.", [contrast], question)
    assert not_carried("Operant conditioning involves watching others and then imitating what they do.",
                       [contrast], question)
    # what the book does say of operant conditioning, and claims about the main clause's subject, are carried
    assert not_carried("In operant conditioning, learning occurs only through direct experience.", [contrast],
                       question) is None
    assert not_carried("Observational learning is watching others and then imitating what they do.", [contrast],
                       "What is observational learning?") is None


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


def test_words_that_point_at_the_source_are_not_claims():
    sentence = "The evidence from the textbook states that using old records is known as archival research."
    assert not_carried(sentence, ["Archival research uses past records to answer questions."],
                       question="Using existing records is known as ____.") is None


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


def test_an_answer_pieced_from_sentences_that_each_say_something_else_is_not_carried():
    evidence = ["The somatic nervous system is associated with activities thought of as voluntary.",
                "It relays sensory information to and from the CNS through motor and sensory neurons."]
    question = "The ________ receive(s) incoming signals from other neurons."
    assert not_carried("The somatic nervous system receives incoming signals from other neurons.", evidence,
                       question) == "link"
    assert not_carried("Dendrites receive incoming signals from other neurons.",
                       ["Dendrites are input sites where signals are received from other neurons."], question) is None


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


def test_a_reason_the_evidence_does_not_give_is_not_carried():
    octahedral = "The complexes are octahedral."
    assert not_carried("The complex has unpaired electrons because it is octahedral.", [octahedral],
                       question="Does the complex have unpaired electrons?") == "cause"
    # The evidence gives a reason ("To keep …", "… results because …"): the claim's reason may rest on it.
    bridge = ("To keep the reactants separate while maintaining charge-balance, the two half-cell solutions are "
              "connected by a tube called a salt bridge.")
    assert not_carried("A salt bridge is needed because it keeps the reactants separate while maintaining "
                       "charge-balance.", [bridge], question="What does a salt bridge do?") is None
    # A question that asks for the reason makes "because" the question's word, not a claim of the model's.
    assert not_carried("The complex is octahedral because of its ligands.", ["The complexes are octahedral."],
                       question="Why is the complex octahedral because of its ligands?") is None


def test_each_half_of_a_contrast_must_be_carried():
    joint = ("Joint committee members are appointed from both the House and the Senate, and are charged with "
             "exploring a few key issues, such as the economy and taxation.")
    claim = ("A select committee is appointed by the House or Senate to explore key issues, while a standing "
             "committee is an approximate department in the executive branch.")
    assert not_carried(claim, [joint], question="select vs standing committee") == "half"
    copy = "Rust says that the type i32 implements the Copy trait, while String does not implement Copy."
    assert not_carried("The type i32 implements the Copy trait, while String does not implement Copy.", [copy]) is None


def test_a_claim_about_what_the_books_never_mention_is_not_carried():
    tests = ("The default behavior of cargo test is to run all the tests in parallel and capture output generated "
             "during test runs.")
    claim = "Cargo nextest runs all the tests in parallel and captures output generated during test runs."
    question = "How is cargo nextest different from cargo test?"
    assert not_carried(claim, [tests], question=question) is None  # the question's words carry "nextest"
    assert not_carried(claim, [tests], question=question, unused=("nextest",)) == "unused"
    assert not_carried("Cargo test runs the tests in parallel.", [tests], question=question,
                       unused=("nextest",)) is None


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


def test_a_pronoun_subject_carries_no_claim_about_a_subject_it_never_names():
    they = "Thus, they prevent dopamine released by one neuron from signaling information to adjacent neurons."
    claim = "This means that cocaine prevents dopamine released by one neuron from signaling to adjacent neurons."
    question = "Which brain chemical does cocaine stop from being taken back up, so it builds up between neurons?"
    assert not_carried(claim, [they], question=question) == "pronoun"
    assert not_carried("They prevent dopamine released by one neuron from signaling to adjacent neurons.", [they]) \
        is None


def test_a_restated_negated_question_keeps_its_not():
    checks = ("The framers of the Constitution, concerned about the excesses of British monarchial power, made sure to "
              "design the presidency within a network of checks and balances.")
    question = "Why didn't the framers want Congress to be the one that picks the president?"
    assert not_carried("The framers wanted Congress to be the one that picks the president because they were "
                       "concerned about the excesses of British monarchial power.", [checks], question) == "negation"
    assert not_carried("The framers were concerned about the excesses of British monarchial power.", [checks],
                       question) is None


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


def test_a_polarity_the_evidence_does_not_use_is_not_carried():
    repulsive = ("The very high temperature gives the nuclei enough kinetic energy to overcome the very strong repulsive "
                 "forces resulting from the positive charges on their nuclei.")
    assert not_carried("Fission needs no high temperature because the strong attractive forces between the nuclei are "
                       "overcome by their kinetic energy.", [repulsive], "why fusion needs high temperature but fission doesn't") \
        == "direction"
    assert directions("Like charges repel; opposite charges attract.") == {"repel", "attract"}


ENERGY = "Energy is the capacity to do work."


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


def test_a_formula_named_as_such_rests_on_the_sentence_that_shows_it():
    definition = "Definition (Kinetic energy). The kinetic energy of an object of mass m moving at speed v is Ek = ½mv²"
    assert not_carried("The formula for kinetic energy is Ek = ½mv², where m is the mass of the object and v is its "
                       "speed.", [definition], "What is kinetic energy?") is None
    assert not_carried("The formula for momentum is Ek = ½mv².", [definition], "What is kinetic energy?") == "subject"


def test_a_wrong_factor_is_not_carried_by_a_sentence_that_uses_the_same_words():
    book = ("Because the speed is squared, doubling the speed of a car multiplies its kinetic energy by four, and "
            "tripling it multiplies the energy by nine.")
    wrong = "This means if you double the speed of an object, its kinetic energy will also double."
    assert not_carried(wrong, [book], question="What is kinetic energy?") == "number"
    assert not_carried("If you double the speed of a car, its kinetic energy quadruples.", [book],
                       question="What is kinetic energy?") is None


def test_a_heading_carries_no_claim():
    heading = "Calculating Molar Concentrations from the Mass of Solute"
    claim = "To work out the molarity of a solution, you need to know the mass of solute and its volume."
    question = "What do I need to know to work out the molarity of a solution?"
    assert not_carried(claim, [heading], question) == "heading"
    molarity = "The molarity of a solution is found from the mass of solute, its molar mass and the volume."
    assert not_carried(claim, [heading, molarity], question) is None  # the sentence beside it still counts
    out = ground(split_answer(claim), Grounded({1: heading}), question=question)
    assert out[0].support is Support.WEAK and out[0].conflict == "heading"


def test_pointing_at_the_code_that_follows_is_no_direction():
    evidence = "Arguments passed to a script can be retrieved as a character vector by args <- commandArgs(TRUE)"
    claim = "To read the arguments passed to a script, you can use the following code: args <- commandArgs(TRUE)"
    assert not_carried(claim, [evidence], "How do I read the arguments passed to a script?") is None
    assert not_carried("The vote is counted after the polls close.", ["The vote is counted when the polls close."],
                       "When is the vote counted?") == "direction"  # "after" still claims an order


def test_the_key_difference_is_a_relational_subject_not_a_claim():
    everyday = ("In everyday language, “radiation” is often used to describe certain kinds of energetic subatomic "
                "particles released by radioactive materials in our environment.")
    claim = ("The key difference between radiation as it is used in everyday language and in astronomy is that the "
             "former refers to energetic subatomic particles released by radioactive materials.")
    question = "Explain the difference between radiation in everyday language and radiation in astronomy."
    assert not_carried(claim, [everyday], question) is None  # "key" is not something the book must say
    other = ("The key difference between comets as they are seen at night and radiation is that the former refers "
             "to energetic subatomic particles released by radioactive materials.")
    assert not_carried(other, [everyday], question) == "subject"  # what it compares must still be the book's
