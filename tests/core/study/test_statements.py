"""What a chapter teaches: statements with their terms, code examples with the output the book prints."""
from __future__ import annotations

from core.models import ChunkRole
from core.study.examples import code_examples
from core.study.statements import StatementKind, classify, identifiers, names_term, statements
from tests.core.study.conftest import make_chunk

R_TEXT = ("The operator %*% is used for matrix multiplication. A dimension vector is a vector of non-negative "
          "integers. Negative indices are not allowed in index matrices. Index matrices must be numerical, and zero rows "
          "of index matrices are ignored.\n\n"
          "> x <- array(1:6, dim=c(2,3))\n> i <- c(1, 2)\n> x[i]\n[1] 1 2\n> runif(2)\n[1] 0.31 0.77\n\n"
          "The function eigen(Sm) calculates the eigenvalues of a symmetric matrix Sm.")
RUST_TEXT = ("Let’s change src/main.rs to the following:\n\nfn main() {\n    let mut x = 5;\n    println!(\"x is: {x}\");"
             "\n    x = 6;\n    println!(\"x is: {x}\");\n}\n\nWhen we run the program now, we get this:\n\n$ cargo run\n"
             "   Compiling variables v0.1.0\n     Running `target/debug/variables`\nx is: 5\nx is: 6\n\n"
             "fn main() {\n    let x = 5;\n    x = 6;\n}\n\nYou should receive an error:\n\n$ cargo run\n"
             "error[E0384]: cannot assign twice to immutable variable `x`\n --> src/main.rs:3:5")


def test_statements_of_a_manual_chunk():
    chunk = make_chunk(1, R_TEXT, key_terms=("dimension vector", "index matrices"))
    found = {s.term: s for s in statements([chunk])}
    assert found["%*%"].kind is StatementKind.DEFINITION
    assert found["dimension vector"].kind is StatementKind.DEFINITION and found["dimension vector"].standalone
    assert found["index matrices"].kind is StatementKind.RULE
    assert found["eigen()"].text.startswith("The function eigen(Sm)")
    assert all(s.source.chunk_id == 1 and s.text in R_TEXT for s in found.values())


def test_classify_and_identifiers():
    assert classify("She is the first person to hold the post.", []) is None
    assert classify("How are the courts structured?", ["courts"]) is None
    assert classify("The resulting explosion is called a supernova.", []) == (StatementKind.DEFINITION, "supernova")
    assert identifiers("Use `mut` with cbind(x, y) or %o%.") == ["mut", "cbind()", "%o%"]


def test_more_of_the_ways_a_textbook_defines_a_term():
    definition = StatementKind.DEFINITION
    assert classify("A pi bond (π bond) is a type of covalent bond from side-by-side overlap.", []) == (
        definition, "pi bond")  # the abbreviation is not part of the term
    assert classify("Associative learning occurs when an organism connects events.", []) == (
        definition, "Associative learning")
    assert classify("A fixed interval schedule is when behavior is rewarded after a set time.", []) == (
        definition, "fixed interval schedule")
    assert classify("A molecule consists of two or more atoms joined by bonds.", []) == (definition, "molecule")
    assert classify("Children then enter what Freud termed the anal stage (1–3 years).", []) == (
        definition, "anal stage")
    assert classify("This is known as latent learning: learning that is not observable in behavior.", []) == (
        definition, "latent learning")  # the definition after a colon
    assert classify("It illustrates a concept Pavlov called spontaneous recovery: the return of a response.", []) == (
        definition, "spontaneous recovery")
    assert classify("This result was nicknamed the Bradley effect, on the theory that voters lied.", []) == (
        definition, "Bradley effect")
    assert names_term("It is called continuous reinforcement.", "continuous reinforcement")
    assert not names_term("Continuous reinforcement is fast.", "continuous reinforcement")
    # not definitions: no article before "consists of", a year in brackets, a plain description, "in which case"
    assert classify("Logical vectors may be used in ordinary arithmetic, in which case they are coerced.", []) is None
    assert classify("She was named secretary of state, after a long fight in the Senate.", []) is None
    assert classify("Any sample of sucrose consists of 42.1% carbon.", []) is None
    assert classify("As researcher Robert Sapolsky (1998) describes, disease emerges.", []) is None


def test_code_examples_keep_printed_output_and_skip_chance():
    examples = code_examples([make_chunk(1, R_TEXT)])
    assert [(e.code.splitlines()[-1], e.output) for e in examples] == [("> x[i]", "[1] 1 2")]
    assert examples[0].code.startswith("> x <- array")  # the session so far: the example can be worked
    rust = code_examples([make_chunk(2, RUST_TEXT, role=ChunkRole.CODE)])
    assert [(e.output, e.error) for e in rust] == [("x is: 5\nx is: 6", False),
                                                  ("error[E0384]: cannot assign twice to immutable variable `x`", True)]


def test_worked_examples_keep_the_question_and_the_value_the_solution_ends_with():
    from core.study.examples import worked_examples
    text = ("Determining the Frequency of Radiation\n\nA sodium streetlight gives off yellow light that has a "
            "wavelength of 589 nm. What is the frequency of this light?\n\nSolution\n\nWe rearrange c = λν to "
            "solve for the frequency.\n\nν = (2.998 × 10^8 m/s)/(589 nm) = 5.09 × 10^{14}s^{−1}\n\n"
            "Check Your Learning\n\nIs the light visible?\n\nSolution\n\nYes, it is = visible light")
    found = worked_examples([make_chunk(1, text, role=ChunkRole.EXAMPLE)])
    assert [(w.problem.endswith("What is the frequency of this light?"), w.answer) for w in found] == \
        [(True, "5.09 × 10^{14}s^{−1}")]  # the yes/no question is not a worked example with a value


def test_a_markup_tag_between_a_program_and_its_transcript_is_no_paragraph():
    text = ('<Listing number="8-6" caption="Adding to a vector while holding a reference">\n\n'
            "let mut v = vec![1, 2, 3];\nlet first = &v[0];\nv.push(6);\nprintln!(\"{first}\");\n\n</Listing>\n\n"
            "Compiling this code will result in this error:\n\n$ cargo run\n   Compiling collections v0.1.0\n"
            "error[E0502]: cannot borrow `v` as mutable because it is also borrowed as immutable")
    examples = code_examples([make_chunk(1, text, role=ChunkRole.CODE)])
    assert [(e.code.splitlines()[0], e.error) for e in examples] == [("let mut v = vec![1, 2, 3];", True)]
    assert examples[0].output.startswith("error[E0502]: cannot borrow `v` as mutable")
