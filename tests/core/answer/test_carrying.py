"""Does one evidence sentence carry an answer sentence: numbers, names, negations, directions, content words."""
from __future__ import annotations

from core.answer.carrying import denial, directions, not_carried, verdict_claim

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


def test_words_that_point_at_the_source_are_not_claims():
    sentence = "The evidence from the textbook states that using old records is known as archival research."
    assert not_carried(sentence, ["Archival research uses past records to answer questions."],
                       question="Using existing records is known as ____.") is None


def test_an_answer_pieced_from_sentences_that_each_say_something_else_is_not_carried():
    evidence = ["The somatic nervous system is associated with activities thought of as voluntary.",
                "It relays sensory information to and from the CNS through motor and sensory neurons."]
    question = "The ________ receive(s) incoming signals from other neurons."
    assert not_carried("The somatic nervous system receives incoming signals from other neurons.", evidence,
                       question) == "link"
    assert not_carried("Dendrites receive incoming signals from other neurons.",
                       ["Dendrites are input sites where signals are received from other neurons."], question) is None


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


def test_a_polarity_the_evidence_does_not_use_is_not_carried():
    repulsive = ("The very high temperature gives the nuclei enough kinetic energy to overcome the very strong repulsive "
                 "forces resulting from the positive charges on their nuclei.")
    assert not_carried("Fission needs no high temperature because the strong attractive forces between the nuclei are "
                       "overcome by their kinetic energy.", [repulsive], "why fusion needs high temperature but fission doesn't") \
        == "direction"
    assert directions("Like charges repel; opposite charges attract.") == {"repel", "attract"}




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
    # "The word X" names X as a word: "word" is no more the book's to say than "key".
    word = ('The word "radiation" is used in everyday language to describe certain kinds of energetic subatomic '
            'particles released by radioactive materials in our environment.')
    assert not_carried(word, [everyday], question) is None
    assert not_carried('The word "comet" is used in everyday language to describe energetic subatomic particles.',
                       [everyday], question) == "subject"


def test_a_yes_or_no_verdict_opens_a_claim_and_no_one_is_no_verdict():
    assert verdict_claim("Yes, R is case sensitive about names.") == "R is case sensitive about names."
    assert verdict_claim("no. the bars do not touch.") == "The bars do not touch."
    assert verdict_claim("No one acquitted of a crime can be tried again for it.") == ""
    assert verdict_claim("Yes.") == ""
    assert verdict_claim("Yesterday the fit converged.") == ""


def test_a_claim_is_denied_whatever_its_verb_and_a_name_keeps_its_capital():
    assert denial("The bars touch.") == "It is not true that the bars touch."
    assert denial("R is case sensitive.") == "It is not true that R is case sensitive."


def test_a_not_in_another_clause_of_the_evidence_does_not_deny_the_claim():
    gif = ("The delay between display of successive frames may be specified in units of 1/100 second (default 5), "
           "but this value may or may not be honored accurately by a program used to view the animation later.")
    asked = "In what unit is the delay between GIF frames given?"
    assert not_carried("The delay between frames is given in units of 1/100 second.", [gif], asked) is None
    # the clause that says the claim's words says "not": still a denial
    assert not_carried("Folkways are norms for casual interaction.",
                       ["Folkways are not norms for casual interaction, but habits."], "What are folkways?") == "negation"


def test_a_quoted_key_or_symbol_must_be_shown_by_the_evidence():
    asked = "After zooming into part of a plot with the mouse, which key brings back the original, unzoomed view?"
    book = "The original plot can be restored by typing the ’u’ hotkey in the plot window."
    right = "The key that brings back the original, unzoomed view after zooming with the mouse is 'u'."
    assert not_carried(right, [book], asked) is None  # the sentence adds the key, and the book shows it
    assert not_carried(right.replace("'u'", "'z'"), [book], asked) == "content"
    # a mark the question shows, quoted or not, is the student's own
    book = "The matrix product of two matrices is computed by the operator for matrix multiplication."
    assert not_carried("The matrix product of two matrices is computed by `%*%`.", [book],
                       "For matrices A and B, what does A %*% B compute?") is None
    assert not_carried("The matrix product of two matrices is computed by `%*%`.", [book],
                       "For matrices A and B, what does the matrix product compute?") == "content"
    # the quotes inside a piece of code are the code's
    assert not_carried('Use `set datafile separator ";"` for fields separated by semicolons.',
                       ["The set datafile separator command tells gnuplot that fields are separated by semicolons."],
                       "How do I read a file whose fields are separated by semicolons?") is None
    # a quoted word is a word: the stems see it, and nothing changes
    assert not_carried('The program prints "hello" twice.', ['The program prints "hello" twice.']) is None


def test_a_reaction_the_evidence_does_not_show_is_not_carried():
    lead_in = ("The equations below show the two possible acid-base reactions for two amphiprotic species, "
               "bicarbonate ion and water:")
    claim = ("The two possible acid-base reactions for bicarbonate ion and water are HCO_3^- + OH^- → CO_3^2- + H_2O "
             "and HCO_3^- + H_2O → H_2CO_3 + OH^-.")
    assert not_carried(claim, [lead_in], "Illustrate amphiprotic species with equations.") == "equation"
    shown = f"{lead_in} HCO_3^–(aq)+H_2O(l)⇌CO_3^{{2–}}(aq)+H_3O^+(aq) HCO_3^–(aq)+H_2O(l)⇌H_2CO_3(aq)+OH^–(aq)"
    assert not_carried(claim, [shown], "Illustrate amphiprotic species with equations.") != "equation"
