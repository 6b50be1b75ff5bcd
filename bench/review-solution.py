"""Course gradebook: the reference solution of the homework used by bench/review.sh.

Reads a course's scores from CSV, checks them, computes weighted averages, letter grades and the statistics a
teacher asks for, applies a curve, and writes the report. Standard library only (see the restriction file).
"""

import csv
import io
import math
from dataclasses import dataclass, field
from typing import Dict, Iterable, List, Optional, Sequence, Tuple

LETTER_BOUNDARIES: Tuple[Tuple[float, str], ...] = (
    (90.0, "A"),
    (80.0, "B"),
    (70.0, "C"),
    (60.0, "D"),
    (50.0, "E"),
)
FAILING_LETTER = "F"
MAX_SCORE = 100.0


class GradebookError(ValueError):
    """A problem with the gradebook's input, with the line it was found on."""

    def __init__(self, message: str, line: Optional[int] = None):
        self.line = line
        super().__init__(message if line is None else f"line {line}: {message}")


@dataclass(frozen=True)
class Assessment:
    """One graded piece of work: a name, its weight in the final grade and the highest possible score."""

    name: str
    weight: float
    max_score: float = MAX_SCORE

    def normalise(self, raw: float) -> float:
        """The raw score as a percentage of this assessment's maximum."""
        if raw < 0 or raw > self.max_score:
            raise GradebookError(f"{self.name}: score {raw} is outside 0..{self.max_score}")
        return raw * 100.0 / self.max_score


@dataclass
class Student:
    """A student's scores, by assessment name; a missing score counts as zero unless excused."""

    student_id: str
    name: str
    scores: Dict[str, float] = field(default_factory=dict)
    excused: Tuple[str, ...] = ()

    def score(self, assessment: str) -> Optional[float]:
        if assessment in self.excused:
            return None
        return self.scores.get(assessment, 0.0)


@dataclass
class Gradebook:
    """The assessments of a course and its students, in the order they were read."""

    assessments: List[Assessment]
    students: List[Student]

    def assessment(self, name: str) -> Assessment:
        for candidate in self.assessments:
            if candidate.name == name:
                return candidate
        raise KeyError(name)

    def total_weight(self) -> float:
        return sum(a.weight for a in self.assessments)


def parse_weights(header: Sequence[str], weights_row: Sequence[str]) -> List[Assessment]:
    """The assessments named in the header, with the weights of the second row ("weight" in its first cell).

    Weights may be given as fractions (0.25) or percentages (25 or 25%); they must add up to 1 or 100.
    """
    if len(header) < 3 or header[0].strip().lower() != "student_id":
        raise GradebookError("the header must start with student_id,name and name the assessments", 1)
    if not weights_row or weights_row[0].strip().lower() != "weight":
        raise GradebookError("the second row must start with 'weight'", 2)
    names = [cell.strip() for cell in header[2:]]
    if len(set(names)) != len(names):
        raise GradebookError("an assessment is named twice", 1)
    raw = []
    for index, cell in enumerate(weights_row[2:2 + len(names)]):
        text = cell.strip().rstrip("%")
        try:
            raw.append(float(text))
        except ValueError:
            raise GradebookError(f"weight of {names[index]!r} is not a number: {cell!r}", 2) from None
    if len(raw) != len(names):
        raise GradebookError("every assessment needs a weight", 2)
    total = sum(raw)
    if math.isclose(total, 100.0, abs_tol=0.01):
        raw = [w / 100.0 for w in raw]
    elif not math.isclose(total, 1.0, abs_tol=0.0001):
        raise GradebookError(f"the weights add up to {total}, not 1 or 100", 2)
    return [Assessment(name, weight) for name, weight in zip(names, raw)]


def parse_score(cell: str, line: int, assessment: str) -> Optional[float]:
    """A score cell: a number, empty (missing: zero), or EX (excused: left out of the average)."""
    text = cell.strip()
    if text == "":
        return 0.0
    if text.upper() == "EX":
        return None
    try:
        value = float(text.replace(",", "."))
    except ValueError:
        raise GradebookError(f"{assessment}: {cell!r} is not a score", line) from None
    if math.isnan(value) or math.isinf(value):
        raise GradebookError(f"{assessment}: {cell!r} is not a score", line)
    return value


def read_gradebook(text: str) -> Gradebook:
    """Parses a gradebook CSV: header, weights row, then one row per student.

    Blank lines and lines starting with '#' are skipped. A student id may appear once only.
    """
    rows = []
    for line_number, row in enumerate(csv.reader(io.StringIO(text)), start=1):
        if not row or all(not cell.strip() for cell in row):
            continue
        if row[0].lstrip().startswith("#"):
            continue
        rows.append((line_number, row))
    if len(rows) < 2:
        raise GradebookError("a gradebook needs a header and a weights row")
    assessments = parse_weights(rows[0][1], rows[1][1])
    students: List[Student] = []
    seen = set()
    for line_number, row in rows[2:]:
        student_id = row[0].strip()
        if not student_id:
            raise GradebookError("a student row needs an id", line_number)
        if student_id in seen:
            raise GradebookError(f"student {student_id} appears twice", line_number)
        seen.add(student_id)
        name = row[1].strip() if len(row) > 1 else ""
        scores: Dict[str, float] = {}
        excused = []
        for index, assessment in enumerate(assessments):
            cell = row[2 + index] if 2 + index < len(row) else ""
            value = parse_score(cell, line_number, assessment.name)
            if value is None:
                excused.append(assessment.name)
            else:
                scores[assessment.name] = assessment.normalise(value)
        students.append(Student(student_id, name, scores, tuple(excused)))
    return Gradebook(assessments, students)


def weighted_average(gradebook: Gradebook, student: Student) -> float:
    """The student's final percentage: excused assessments are left out and the other weights rescaled."""
    numerator = 0.0
    denominator = 0.0
    for assessment in gradebook.assessments:
        score = student.score(assessment.name)
        if score is None:
            continue
        numerator += score * assessment.weight
        denominator += assessment.weight
    if denominator == 0:
        return 0.0
    return numerator / denominator


def drop_lowest(gradebook: Gradebook, student: Student, prefix: str, count: int = 1) -> Student:
    """A copy of the student with their lowest `count` scores among assessments named prefix* excused.

    Used for quizzes: the worst quiz does not count. Assessments already excused stay excused.
    """
    if count < 0:
        raise ValueError("count must not be negative")
    candidates = [
        (student.score(assessment.name), assessment.name)
        for assessment in gradebook.assessments
        if assessment.name.startswith(prefix) and student.score(assessment.name) is not None
    ]
    candidates.sort()
    dropped = tuple(name for _, name in candidates[:count])
    return Student(student.student_id, student.name, dict(student.scores), student.excused + dropped)


def merge_gradebooks(first: Gradebook, second: Gradebook) -> Gradebook:
    """Two sections of the same course in one gradebook; the assessments and weights must be the same."""
    if [(a.name, a.weight) for a in first.assessments] != [(a.name, a.weight) for a in second.assessments]:
        raise GradebookError("the sections do not share their assessments")
    ids = {student.student_id for student in first.students}
    clashes = [student.student_id for student in second.students if student.student_id in ids]
    if clashes:
        raise GradebookError("students in both sections: " + ", ".join(sorted(clashes)))
    return Gradebook(list(first.assessments), first.students + second.students)


def letter_grade(percentage: float) -> str:
    """A to E by the course's boundaries (inclusive lower bounds), F below the last one."""
    if percentage < 0 or percentage > MAX_SCORE + 1e-9:
        raise ValueError(f"a percentage is 0..100, not {percentage}")
    for boundary, letter in LETTER_BOUNDARIES:
        if percentage >= boundary:
            return letter
    return FAILING_LETTER


def mean(values: Sequence[float]) -> float:
    if not values:
        raise ValueError("the mean of no values")
    return sum(values) / len(values)


def median(values: Sequence[float]) -> float:
    if not values:
        raise ValueError("the median of no values")
    ordered = sorted(values)
    middle = len(ordered) // 2
    if len(ordered) % 2 == 1:
        return ordered[middle]
    return (ordered[middle - 1] + ordered[middle]) / 2.0


def variance(values: Sequence[float], sample: bool = True) -> float:
    """The variance, of a sample (n - 1) by default; two-pass for accuracy."""
    count = len(values)
    if count < (2 if sample else 1):
        raise ValueError("not enough values for a variance")
    centre = mean(values)
    squares = sum((value - centre) ** 2 for value in values)
    return squares / (count - 1 if sample else count)


def standard_deviation(values: Sequence[float], sample: bool = True) -> float:
    return math.sqrt(variance(values, sample))


def percentile(values: Sequence[float], rank: float) -> float:
    """The rank-th percentile (0..100) with linear interpolation between the closest ranks."""
    if not values:
        raise ValueError("the percentile of no values")
    if rank < 0 or rank > 100:
        raise ValueError(f"a percentile rank is 0..100, not {rank}")
    ordered = sorted(values)
    if len(ordered) == 1:
        return ordered[0]
    position = (len(ordered) - 1) * rank / 100.0
    lower = math.floor(position)
    upper = math.ceil(position)
    if lower == upper:
        return ordered[int(position)]
    fraction = position - lower
    return ordered[lower] + (ordered[upper] - ordered[lower]) * fraction


def mode(values: Iterable[str]) -> List[str]:
    """The most frequent values (all of them when several tie), in the order they first appear."""
    counts: Dict[str, int] = {}
    order: List[str] = []
    for value in values:
        if value not in counts:
            order.append(value)
            counts[value] = 0
        counts[value] += 1
    if not counts:
        return []
    best = max(counts.values())
    return [value for value in order if counts[value] == best]


@dataclass(frozen=True)
class Summary:
    """The statistics of one assessment or of the final percentages."""

    name: str
    count: int
    mean: float
    median: float
    stdev: float
    minimum: float
    maximum: float
    p25: float
    p75: float

    @property
    def spread(self) -> float:
        return self.p75 - self.p25


def summarise(name: str, values: Sequence[float]) -> Summary:
    """Summary statistics; the deviation of a single value is 0."""
    if not values:
        raise GradebookError(f"{name}: no scores to summarise")
    stdev = standard_deviation(values) if len(values) > 1 else 0.0
    return Summary(
        name=name,
        count=len(values),
        mean=mean(values),
        median=median(values),
        stdev=stdev,
        minimum=min(values),
        maximum=max(values),
        p25=percentile(values, 25),
        p75=percentile(values, 75),
    )


def assessment_summaries(gradebook: Gradebook) -> List[Summary]:
    """One summary per assessment over the students who were not excused from it."""
    summaries = []
    for assessment in gradebook.assessments:
        values = [
            student.score(assessment.name)
            for student in gradebook.students
            if student.score(assessment.name) is not None
        ]
        if values:
            summaries.append(summarise(assessment.name, values))
    return summaries


def curve(percentages: Dict[str, float], target_mean: float, cap: float = MAX_SCORE) -> Dict[str, float]:
    """Shifts every percentage so that the mean becomes target_mean; never lowers a grade, never passes cap.

    Returns a new mapping; the input is left as it was.
    """
    if not percentages:
        return {}
    if target_mean < 0 or target_mean > cap:
        raise ValueError(f"the target mean must be within 0..{cap}")
    shift = target_mean - mean(list(percentages.values()))
    if shift <= 0:
        return dict(percentages)
    return {student: min(cap, value + shift) for student, value in percentages.items()}


def z_scores(percentages: Dict[str, float]) -> Dict[str, float]:
    """How many standard deviations each student is from the mean; 0 for everyone when all are equal."""
    values = list(percentages.values())
    if len(values) < 2:
        return {student: 0.0 for student in percentages}
    centre = mean(values)
    deviation = standard_deviation(values)
    if deviation == 0:
        return {student: 0.0 for student in percentages}
    return {student: (value - centre) / deviation for student, value in percentages.items()}


def rank(percentages: Dict[str, float]) -> List[Tuple[int, str, float]]:
    """Students by percentage, best first; equal percentages share a rank (1, 2, 2, 4)."""
    ordered = sorted(percentages.items(), key=lambda item: (-item[1], item[0]))
    ranked = []
    previous = None
    position = 0
    for index, (student, value) in enumerate(ordered, start=1):
        if previous is None or not math.isclose(value, previous, abs_tol=1e-9):
            position = index
            previous = value
        ranked.append((position, student, value))
    return ranked


def histogram(letters: Iterable[str]) -> Dict[str, int]:
    """How many students got each letter, every letter listed (zero included), A first."""
    counts = {letter: 0 for _, letter in LETTER_BOUNDARIES}
    counts[FAILING_LETTER] = 0
    for letter in letters:
        if letter not in counts:
            raise ValueError(f"unknown letter {letter!r}")
        counts[letter] += 1
    return counts


def at_risk(gradebook: Gradebook, percentages: Dict[str, float], threshold: float = 60.0) -> List[str]:
    """Students below the threshold, or with two or more missing (zero, not excused) scores."""
    flagged = []
    for student in gradebook.students:
        missing = sum(
            1
            for assessment in gradebook.assessments
            if assessment.name not in student.excused and assessment.name not in student.scores
        )
        if percentages.get(student.student_id, 0.0) < threshold or missing >= 2:
            flagged.append(student.student_id)
    return flagged


@dataclass
class Report:
    """Everything the teacher's report shows, computed once."""

    finals: Dict[str, float]
    letters: Dict[str, str]
    ranking: List[Tuple[int, str, float]]
    summaries: List[Summary]
    overall: Optional[Summary]
    distribution: Dict[str, int]
    flagged: List[str]


def build_report(gradebook: Gradebook, target_mean: Optional[float] = None) -> Report:
    """Final percentages (curved when a target mean is given), letters, ranking, statistics, risks."""
    finals = {student.student_id: weighted_average(gradebook, student) for student in gradebook.students}
    if target_mean is not None:
        finals = curve(finals, target_mean)
    letters = {student: letter_grade(value) for student, value in finals.items()}
    overall = summarise("final", list(finals.values())) if finals else None
    return Report(
        finals=finals,
        letters=letters,
        ranking=rank(finals),
        summaries=assessment_summaries(gradebook),
        overall=overall,
        distribution=histogram(letters.values()),
        flagged=at_risk(gradebook, finals),
    )


def format_number(value: float, digits: int = 1) -> str:
    """A number with a fixed count of decimals, '-' for None."""
    if value is None:
        return "-"
    return f"{value:.{digits}f}"


def format_table(headers: Sequence[str], rows: Sequence[Sequence[str]]) -> str:
    """A plain-text table with columns as wide as their widest cell; numbers right-aligned."""
    widths = [len(header) for header in headers]
    for row in rows:
        for index, cell in enumerate(row):
            widths[index] = max(widths[index], len(cell))
    def line(cells: Sequence[str]) -> str:
        parts = []
        for index, cell in enumerate(cells):
            if cell.replace(".", "", 1).replace("-", "", 1).isdigit():
                parts.append(cell.rjust(widths[index]))
            else:
                parts.append(cell.ljust(widths[index]))
        return "  ".join(parts).rstrip()
    separator = "  ".join("-" * width for width in widths)
    return "\n".join([line(headers), separator] + [line(row) for row in rows])


def render_report(gradebook: Gradebook, report: Report) -> str:
    """The report as text: ranking with letters, per-assessment statistics, distribution, students at risk."""
    names = {student.student_id: student.name for student in gradebook.students}
    out = ["Final grades", ""]
    out.append(format_table(
        ["rank", "student", "name", "final", "letter"],
        [
            [str(position), student, names.get(student, ""), format_number(value), report.letters[student]]
            for position, student, value in report.ranking
        ],
    ))
    out += ["", "Assessments", ""]
    out.append(format_table(
        ["assessment", "n", "mean", "median", "stdev", "min", "max", "IQR"],
        [
            [
                s.name, str(s.count), format_number(s.mean), format_number(s.median), format_number(s.stdev),
                format_number(s.minimum), format_number(s.maximum), format_number(s.spread),
            ]
            for s in report.summaries
        ],
    ))
    if report.overall is not None:
        o = report.overall
        out += ["", f"Overall: mean {format_number(o.mean)}, median {format_number(o.median)},"
                    f" stdev {format_number(o.stdev)}, n {o.count}"]
    out += ["", "Distribution: " + ", ".join(f"{k} {v}" for k, v in report.distribution.items())]
    if report.flagged:
        out += ["", "At risk: " + ", ".join(report.flagged)]
    return "\n".join(out) + "\n"


def write_csv(report: Report, gradebook: Gradebook) -> str:
    """The final grades as CSV (student_id,name,final,letter,rank), in ranking order."""
    names = {student.student_id: student.name for student in gradebook.students}
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    writer.writerow(["student_id", "name", "final", "letter", "rank"])
    for position, student, value in report.ranking:
        writer.writerow([student, names.get(student, ""), format_number(value, 2), report.letters[student], position])
    return buffer.getvalue()


def main(argv: Optional[Sequence[str]] = None) -> int:
    """gradebook.py SCORES.csv [--curve MEAN] [--csv OUT.csv]: prints the report, optionally writes the CSV."""
    import argparse
    import sys

    parser = argparse.ArgumentParser(description="Course gradebook report")
    parser.add_argument("scores", help="the gradebook CSV")
    parser.add_argument("--curve", type=float, default=None, help="shift grades up to this mean")
    parser.add_argument("--csv", default=None, help="also write the final grades to this CSV file")
    args = parser.parse_args(argv)
    try:
        with open(args.scores, encoding="utf-8") as handle:
            gradebook = read_gradebook(handle.read())
        report = build_report(gradebook, args.curve)
    except (OSError, GradebookError) as error:
        print(f"gradebook: {error}", file=sys.stderr)
        return 1
    sys.stdout.write(render_report(gradebook, report))
    if args.csv:
        with open(args.csv, "w", encoding="utf-8") as handle:
            handle.write(write_csv(report, gradebook))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
