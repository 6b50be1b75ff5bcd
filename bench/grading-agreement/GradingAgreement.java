import com.chatreview.grading.Grader;
import com.chatreview.grading.ProseMeaning;
import com.chatreview.grading.ReviewRequest;
import com.chatreview.grading.ReviewRequest.ReviewDocument;
import com.chatreview.grading.Rubric;
import com.chatreview.grading.Verdict;
import com.chatreview.meaning.Meaning;
import com.chatreview.meaning.SentenceModel;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * How well the offline reviewer's grades of written answers agree with human graders' (docs/benchmarks.md, "Grading
 * written answers"). Each question of a data set becomes a homework (the question its task, the instructor's answer
 * its reference answer, one criterion of 100 points); each student answer is reviewed by the service's own Grader
 * with its sentence model, in this process. Printed: Pearson and Spearman correlation of the points with the human
 * score, quadratic weighted kappa of the letters (A-F, from the points as the service gives them and from the human
 * score on the same scale), beside the same figures between the two human graders where the data set has two; and
 * the raw similarity's correlations, and the scale that fits the human scores best (how Prose.NONE and Prose.FULL
 * were chosen).
 *
 *   bench/grading-agreement/run.sh mohler <ShortAnswerGrading_v2.0/data>    (two graders, 0-5)
 *   bench/grading-agreement/run.sh saf <a directory of SAF's English XML files>    (one score per answer)
 */
public class GradingAgreement {

    record Item(String question, String questionText, String reference, String answer, double human, double other) {}

    public static void main(String[] args) throws Exception {
        if (args[0].equals("page")) {
            page();
            return;
        }
        List<Item> items = switch (args[0]) {
            case "mohler" -> mohler(Path.of(args[1]));
            case "saf" -> saf(Path.of(args[1]));
            default -> throw new IllegalArgumentException("mohler or saf, not " + args[0]);
        };
        System.out.printf("%s: %d answers to %d questions%n", args[0], items.size(),
                items.stream().map(Item::question).distinct().count());
        SentenceModel model = SentenceModel.inProcess();
        Grader grader = new Grader(adapter(model));
        Rubric rubric = new Rubric(List.of(new Rubric.Criterion("answer", "Answers the question", null, 100)));

        double[] human = new double[items.size()];
        double[] other = new double[items.size()];
        double[] points = new double[items.size()];
        double[] similarity = new double[items.size()];
        double[] toQuestion = new double[items.size()];
        String[] letters = new String[items.size()];
        // the process's CPU, not the thread's: ONNX Runtime works on threads of its own besides the caller's
        var system = (com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();
        long cpu = 0;
        model.meaningsOf(List.of("warm up")); // the model's load is not a review's cost
        for (int i = 0; i < items.size(); i++) {
            Item item = items.get(i);
            human[i] = item.human();
            other[i] = item.other();
            long started = system.getProcessCpuTime();
            Verdict verdict = grader.review(new ReviewRequest(
                    item.question(),
                    null,
                    List.of(ReviewDocument.text("question.md", "text/markdown", item.questionText())),
                    List.of(ReviewDocument.text("answer.txt", "text/plain", item.reference())),
                    List.of(),
                    List.of(ReviewDocument.text("answer.txt", "text/plain", item.answer())),
                    rubric));
            cpu += system.getProcessCpuTime() - started;
            points[i] = verdict.points() / (double) verdict.maxPoints();
            letters[i] = verdict.grade();
            similarity[i] = Grader.closeness(adapter(model), item.answer(), item.reference(), item.questionText())
                    .orElseThrow(() -> new IllegalStateException("no model: " + model.unavailableBecause()));
            List<Meaning> meanings = model.meaningsOf(List.of(item.answer(), item.reference(), item.questionText()))
                    .orElseThrow();
            toQuestion[i] = meanings.get(0).similarity(meanings.get(1));
        }
        String[] humanLetters = Arrays.stream(human).mapToObj(GradingAgreement::letter).toArray(String[]::new);
        System.out.printf("review CPU: %.1f ms an answer (mean, the whole process)%n", cpu / 1e6 / items.size());
        System.out.printf("%-34s %8s %8s %8s%n", "", "Pearson", "Spearman", "QWK");
        row("the review's points vs the human score", points, human, letters, humanLetters);
        if (!Double.isNaN(other[0])) {
            double[] first = new double[items.size()];
            for (int i = 0; i < items.size(); i++) {
                first[i] = 2 * human[i] - other[i]; // human is the mean of the two
            }
            row("human grader 1 vs human grader 2", first, other,
                    Arrays.stream(first).mapToObj(GradingAgreement::letter).toArray(String[]::new),
                    Arrays.stream(other).mapToObj(GradingAgreement::letter).toArray(String[]::new));
        }
        System.out.printf("closeness (before the scale) vs human: Pearson %.3f, Spearman %.3f%n",
                pearson(similarity, human), spearman(similarity, human));
        System.out.printf("the sentence model's similarity alone vs human: Pearson %.3f%n", pearson(toQuestion, human));
        if (System.getenv("EXPLORE") != null) {
            explore(items, model, human);
        }
        calibrate(similarity, human);
        heldOut(items, similarity, human);
        Map<String, Integer> counts = new LinkedHashMap<>();
        for (String letter : List.of("A", "B", "C", "D", "E", "F")) {
            counts.put(letter, 0);
        }
        Arrays.stream(letters).forEach(letter -> counts.merge(letter, 1, Integer::sum));
        System.out.println("the review's letters: " + counts);
        Map<String, Integer> humanCounts = new LinkedHashMap<>();
        counts.keySet().forEach(letter -> humanCounts.put(letter, 0));
        Arrays.stream(humanLetters).forEach(letter -> humanCounts.merge(letter, 1, Integer::sum));
        System.out.println("the human letters:   " + humanCounts);
    }

    static final java.util.Set<String> STOP = java.util.Set.of("the","a","an","of","to","in","is","are","and","or","it","that","this","for","on","be","by","with","as","at","from","its","can","which","will","not","they","their","you","your","was","were","has","have","if","so","but","what","when","where","how","than","then","there","these","those","into","also","each","any","all","one","more","most","such","used","use");

    static java.util.Set<String> words(String text) {
        java.util.Set<String> out = new java.util.HashSet<>();
        for (String w : text.toLowerCase().split("[^a-z0-9]+")) {
            if (w.length() > 1 && !STOP.contains(w)) out.add(w.length() > 4 && w.endsWith("s") ? w.substring(0, w.length() - 1) : w);
        }
        return out;
    }

    static void explore(List<Item> items, SentenceModel model, double[] human) {
        int n = items.size();
        double[] lex = new double[n], lexDemoted = new double[n], cosDemoted = new double[n], sentMax = new double[n], cos = new double[n], coverage = new double[n];
        for (int i = 0; i < n; i++) {
            Item item = items.get(i);
            java.util.Set<String> q = words(item.questionText());
            java.util.Set<String> r = words(item.reference());
            java.util.Set<String> a = words(item.answer());
            long hit = r.stream().filter(a::contains).count();
            lex[i] = r.isEmpty() ? 0 : hit / (double) r.size();
            java.util.Set<String> rd = new java.util.HashSet<>(r); rd.removeAll(q);
            java.util.Set<String> ad = new java.util.HashSet<>(a); ad.removeAll(q);
            long hitD = rd.stream().filter(ad::contains).count();
            lexDemoted[i] = rd.isEmpty() ? lex[i] : hitD / (double) rd.size();
            String aDem = String.join(" ", ad.isEmpty() ? a : ad);
            String rDem = String.join(" ", rd.isEmpty() ? r : rd);
            List<String> sentences = new ArrayList<>(List.of(item.answer().split("(?<=[.!?;])\\s+")));
            List<String> refSentences = new ArrayList<>(List.of(item.reference().split("(?<=[.!?;])\\s+")));
            List<String> texts = new ArrayList<>(List.of(item.answer(), item.reference(), aDem, rDem));
            texts.addAll(sentences);
            texts.addAll(refSentences);
            List<Meaning> m = model.meaningsOf(texts).orElseThrow();
            cos[i] = m.get(0).similarity(m.get(1));
            cosDemoted[i] = m.get(2).similarity(m.get(3));
            double best = 0;
            for (int s = 0; s < sentences.size(); s++) best = Math.max(best, m.get(4 + s).similarity(m.get(1)));
            sentMax[i] = best;
            double cov = 0;
            for (int rs = 0; rs < refSentences.size(); rs++) {
                double b = m.get(0).similarity(m.get(4 + sentences.size() + rs));
                for (int s = 0; s < sentences.size(); s++) b = Math.max(b, m.get(4 + s).similarity(m.get(4 + sentences.size() + rs)));
                cov += b;
            }
            coverage[i] = cov / refSentences.size();
        }
        System.out.printf("explore: cos %.3f | cosDemoted %.3f | sentMax %.3f | coverage %.3f | lex %.3f | lexDemoted %.3f%n",
                pearson(cos, human), pearson(cosDemoted, human), pearson(sentMax, human), pearson(coverage, human), pearson(lex, human), pearson(lexDemoted, human));
        double[] lenRatio = new double[n];
        for (int i = 0; i < n; i++) {
            lenRatio[i] = Math.min(2, words(items.get(i).answer()).size() / (double) Math.max(1, words(items.get(i).reference()).size()));
        }
        double[][] features = {cos, cosDemoted, coverage, lex, lexDemoted, lenRatio};
        String[] ids = items.stream().map(Item::question).toArray(String[]::new);
        double[] fitted = new double[n];
        for (int fold = 0; fold < 2; fold++) {
            final int f = fold;
            double[] w = fit(features, human, i -> Math.abs(ids[i].hashCode()) % 2 != f);
            for (int i = 0; i < n; i++) {
                if (Math.abs(ids[i].hashCode()) % 2 == f) fitted[i] = predict(features, w, i);
            }
            System.out.println("fold " + fold + " weights " + Arrays.toString(Arrays.stream(w).map(x -> Math.round(x * 1000) / 1000.0).toArray()));
        }
        System.out.printf("linear fit, held out by question (2 folds): Pearson %.3f%n", pearson(fitted, human));
        double[] all = fit(features, human, i -> true);
        double[] inSample = new double[n];
        for (int i = 0; i < n; i++) inSample[i] = predict(features, all, i);
        System.out.printf("linear fit, all: Pearson %.3f, weights %s%n", pearson(inSample, human), Arrays.toString(Arrays.stream(all).map(x -> Math.round(x * 1000) / 1000.0).toArray()));
        for (double w : new double[] {0.2, 0.3, 0.4, 0.5, 0.6}) {
            double[] c1 = new double[n], c2 = new double[n], c3 = new double[n], c4 = new double[n];
            for (int i = 0; i < n; i++) {
                c1[i] = (1 - w) * cos[i] + w * lexDemoted[i];
                c2[i] = (1 - w) * cos[i] + w * cosDemoted[i];
                c3[i] = (1 - w) * Math.max(cos[i], coverage[i]) + w * lexDemoted[i];
                c4[i] = (1 - w) * (cos[i] + cosDemoted[i]) / 2 + w * lexDemoted[i];
            }
            System.out.printf("w %.1f: cos+lexD %.3f | cos+cosD %.3f | max(cos,cov)+lexD %.3f | (cos+cosD)/2+lexD %.3f%n", w, pearson(c1, human), pearson(c2, human), pearson(c3, human), pearson(c4, human));
        }
    }

    static double predict(double[][] f, double[] w, int i) {
        double y = w[0];
        for (int k = 0; k < f.length; k++) y += w[k + 1] * f[k][i];
        return y;
    }

    /** Ordinary least squares with an intercept, on the rows {@code use} takes. */
    static double[] fit(double[][] f, double[] y, java.util.function.IntPredicate use) {
        int p = f.length + 1;
        double[][] a = new double[p][p + 1];
        for (int i = 0; i < y.length; i++) {
            if (!use.test(i)) continue;
            double[] x = new double[p];
            x[0] = 1;
            for (int k = 0; k < f.length; k++) x[k + 1] = f[k][i];
            for (int r = 0; r < p; r++) {
                for (int c = 0; c < p; c++) a[r][c] += x[r] * x[c];
                a[r][p] += x[r] * y[i];
            }
        }
        for (int col = 0; col < p; col++) {
            int piv = col;
            for (int r = col + 1; r < p; r++) if (Math.abs(a[r][col]) > Math.abs(a[piv][col])) piv = r;
            double[] t = a[col]; a[col] = a[piv]; a[piv] = t;
            for (int r = 0; r < p; r++) {
                if (r == col) continue;
                double factor = a[r][col] / a[col][col];
                for (int c = col; c <= p; c++) a[r][c] -= factor * a[col][c];
            }
        }
        double[] w = new double[p];
        for (int r = 0; r < p; r++) w[r] = a[r][p] / a[r][r];
        return w;
    }

    /**
     * The scale chosen on half the questions and tried on the other half, both ways: what the figures would be for
     * questions the scale never saw.
     */
    static void heldOut(List<Item> items, double[] closeness, double[] human) {
        double[] shares = new double[items.size()];
        for (int half = 0; half < 2; half++) {
            final int h = half;
            java.util.function.IntPredicate inHalf = i -> Math.floorMod(items.get(i).question().hashCode(), 2) == h;
            double bestKappa = -1;
            double bestFull = 0;
            String[] humanLetters = Arrays.stream(human).mapToObj(GradingAgreement::letter).toArray(String[]::new);
            for (double full = 0.05; full <= 1.0; full += 0.01) {
                List<String> a = new ArrayList<>();
                List<String> b = new ArrayList<>();
                for (int i = 0; i < items.size(); i++) {
                    if (inHalf.test(i)) {
                        a.add(letter(Math.clamp(closeness[i] / full, 0, 1)));
                        b.add(humanLetters[i]);
                    }
                }
                double kappa = qwk(a.toArray(String[]::new), b.toArray(String[]::new));
                if (kappa > bestKappa) {
                    bestKappa = kappa;
                    bestFull = full;
                }
            }
            for (int i = 0; i < items.size(); i++) {
                if (!inHalf.test(i)) {
                    shares[i] = Math.clamp(closeness[i] / bestFull, 0, 1);
                }
            }
            System.out.printf("  half %d of the questions sets full at %.2f%n", half, bestFull);
        }
        System.out.printf("held out (the scale set on the other half's questions): Pearson %.3f, Spearman %.3f, QWK %.3f%n",
                pearson(shares, human), spearman(shares, human),
                qwk(Arrays.stream(shares).mapToObj(GradingAgreement::letter).toArray(String[]::new),
                        Arrays.stream(human).mapToObj(GradingAgreement::letter).toArray(String[]::new)));
    }

    /**
     * What the model costs a review of a page: 20 different answers of about 500 words against one reference answer, after 30 to warm up; the sentence model's part apart.
     */
    static void page() {
        SentenceModel model = SentenceModel.inProcess();
        var system = (com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();
        var threads = ManagementFactory.getThreadMXBean();
        long[] inModel = new long[2];
        Grader grader = new Grader((texts, others) -> {
            long p0 = system.getProcessCpuTime();
            long t0 = threads.getCurrentThreadCpuTime();
            var similarities = model.similarities(texts, others);
            inModel[0] += system.getProcessCpuTime() - p0;
            inModel[1] += threads.getCurrentThreadCpuTime() - t0;
            return similarities;
        });
        // the reference answer: six sentences; the pages: sentences of a larger pool in a random order, so that no
        // passage of one page is met again (the model's cache would hide its cost), in prose's own words (numbering
        // the sentences apart, as this benchmark once did, added a sixth to a page's tokens)
        String[] reference = {
            "A stack is a data structure that stores elements in order.",
            "Elements are pushed onto the top and popped from the top.",
            "The last element pushed is the first one popped, which is called LIFO.",
            "Stacks are used for function calls, undo features and parsing expressions.",
            "A queue, in contrast, removes the oldest element first.",
            "Both can be built on arrays or linked lists with constant time operations."
        };
        String[] pool = {
            "A stack keeps its items like a pile of plates on a kitchen shelf.",
            "You can only reach the plate that was put down last.",
            "Adding an item is called a push and taking one away is called a pop.",
            "Most languages also offer a peek that looks at the top without removing it.",
            "When a program calls a function, the return address goes onto the call stack.",
            "Local variables of that call live in the same frame until the function returns.",
            "Deep recursion can fill the call stack, which ends in a stack overflow error.",
            "Text editors keep every change on a stack so that undo can reverse the latest one.",
            "A second stack often holds the undone changes so that redo can apply them again.",
            "Compilers use a stack to check that every opening bracket has a matching closing one.",
            "Evaluating an expression in postfix notation needs nothing more than one stack of numbers.",
            "The shunting yard algorithm turns ordinary arithmetic into postfix with an operator stack.",
            "Web browsers remember the pages you visited on a stack behind the back button.",
            "Depth first search can be written with an explicit stack instead of recursion.",
            "An array based stack stores the index of the top and grows the array when it is full.",
            "A linked list stack adds each new node at the head, so push and pop never move other nodes.",
            "Both versions take constant time for push and pop in the usual case.",
            "Popping from an empty stack is an error that a careful program checks for first.",
            "A queue differs because the first item added is the first item removed.",
            "Printers and message brokers usually work through their jobs in queue order.",
            "A deque allows adding and removing at both ends, so it can act as either structure.",
            "In Java the ArrayDeque class is preferred over the older Stack class.",
            "The older class is synchronized, which makes every operation slower than it needs to be.",
            "Stacks also appear in hardware, where the processor keeps a stack pointer register.",
            "Interrupt handlers save the registers on the stack before they run their own code.",
            "Backtracking puzzles like mazes push each choice and pop it when the path is a dead end.",
            "Memory for the stack is usually small compared with the heap of a program.",
            "Because only the top is visible, a stack protects the order of what it stores.",
            "Thinking of the structure as last in, first out makes its uses easy to remember.",
            "In summary, the stack is simple, fast and found almost everywhere in computing."
        };
        List<ReviewDocument> task = List.of(ReviewDocument.text(
                "question.md", "text/markdown", "Explain what a stack is and where it is used."));
        List<ReviewDocument> referenceAnswer =
                List.of(ReviewDocument.text("answer.txt", "text/plain", String.join(" ", reference)));
        java.util.Random random = new java.util.Random(42);
        int warmUp = 30;
        int measured = 60;
        long process = 0;
        long thread = 0;
        int words = 0;
        for (int k = 0; k < warmUp + measured; k++) {
            StringBuilder page = new StringBuilder();
            words = 0;
            while (words < 500) {
                String sentence = pool[random.nextInt(pool.length)];
                page.append(sentence).append(' ');
                words += sentence.split(" ").length;
            }
            ReviewRequest request = new ReviewRequest("page", null, task, referenceAnswer, List.of(),
                    List.of(ReviewDocument.text("answer.txt", "text/plain", page.toString())));
            long p0 = system.getProcessCpuTime();
            long t0 = threads.getCurrentThreadCpuTime();
            grader.review(request);
            if (k == warmUp - 1) {
                inModel[0] = 0;
                inModel[1] = 0;
            }
            if (k >= warmUp) {
                process += system.getProcessCpuTime() - p0;
                thread += threads.getCurrentThreadCpuTime() - t0;
            }
        }
        System.out.printf("a page of about %d words: %.1f ms of the process's CPU a review (%.1f ms on its thread)%n",
                words, process / 1e6 / measured, thread / 1e6 / measured);
        System.out.printf("  of which the sentence model's: %.1f ms of the process's CPU (%.1f ms on its thread)%n",
                inModel[0] / 1e6 / measured, inModel[1] / 1e6 / measured);
    }

    /** The scale share = (s - none) / (full - none), clamped, that fits the human score best (least squares). */
    static void calibrate(double[] similarity, double[] human) {
        double bestError = Double.MAX_VALUE;
        double bestNone = 0;
        double bestFull = 0;
        for (double none = 0.0; none <= 0.8; none += 0.01) {
            for (double full = none + 0.05; full <= 1.0; full += 0.01) {
                double error = 0;
                for (int i = 0; i < similarity.length; i++) {
                    double share = Math.clamp((similarity[i] - none) / (full - none), 0, 1);
                    error += (share - human[i]) * (share - human[i]);
                }
                if (error < bestError) {
                    bestError = error;
                    bestNone = none;
                    bestFull = full;
                }
            }
        }
        System.out.printf("best-fitting scale: none %.2f, full %.2f (RMS error %.3f of the whole scale)%n",
                bestNone, bestFull, Math.sqrt(bestError / similarity.length));
        String[] humanLetters = Arrays.stream(human).mapToObj(GradingAgreement::letter).toArray(String[]::new);
        double bestKappa = -1;
        for (double none = 0.0; none <= 0.8; none += 0.01) {
            for (double full = none + 0.05; full <= 1.0; full += 0.01) {
                String[] letters = new String[similarity.length];
                double[] shares = new double[similarity.length];
                for (int i = 0; i < similarity.length; i++) {
                    shares[i] = Math.clamp((similarity[i] - none) / (full - none), 0, 1);
                    letters[i] = letter(shares[i]);
                }
                double kappa = qwk(letters, humanLetters);
                if (kappa > bestKappa) {
                    bestKappa = kappa;
                    bestNone = none;
                    bestFull = full;
                }
            }
        }
        double[] shares = new double[similarity.length];
        for (int i = 0; i < similarity.length; i++) {
            shares[i] = Math.clamp((similarity[i] - bestNone) / (bestFull - bestNone), 0, 1);
        }
        System.out.printf("the scale with the letters' best kappa: none %.2f, full %.2f (QWK %.3f, Pearson %.3f)%n",
                bestNone, bestFull, bestKappa, pearson(shares, human));
    }

    static void row(String name, double[] a, double[] b, String[] la, String[] lb) {
        System.out.printf("%-34s %8.3f %8.3f %8.3f%n", name, pearson(a, b), spearman(a, b), qwk(la, lb));
    }

    /** The letter of a share of the points, as the service gives it (A from 90 %, ... F below 50 %). */
    static String letter(double share) {
        double percent = share * 100;
        return percent >= 90 ? "A" : percent >= 80 ? "B" : percent >= 70 ? "C" : percent >= 60 ? "D"
                : percent >= 50 ? "E" : "F";
    }

    static double pearson(double[] x, double[] y) {
        double mx = Arrays.stream(x).average().orElse(0);
        double my = Arrays.stream(y).average().orElse(0);
        double sxy = 0, sxx = 0, syy = 0;
        for (int i = 0; i < x.length; i++) {
            sxy += (x[i] - mx) * (y[i] - my);
            sxx += (x[i] - mx) * (x[i] - mx);
            syy += (y[i] - my) * (y[i] - my);
        }
        return sxy / Math.sqrt(sxx * syy);
    }

    static double spearman(double[] x, double[] y) {
        return pearson(ranks(x), ranks(y));
    }

    /** Ranks from 1, ties given their mean rank. */
    static double[] ranks(double[] values) {
        Integer[] order = new Integer[values.length];
        for (int i = 0; i < order.length; i++) {
            order[i] = i;
        }
        Arrays.sort(order, Comparator.comparingDouble(i -> values[i]));
        double[] ranks = new double[values.length];
        for (int i = 0; i < order.length; ) {
            int j = i;
            while (j + 1 < order.length && values[order[j + 1]] == values[order[i]]) {
                j++;
            }
            for (int k = i; k <= j; k++) {
                ranks[order[k]] = (i + j) / 2.0 + 1;
            }
            i = j + 1;
        }
        return ranks;
    }

    /** Quadratic weighted kappa of two graders' letters, A to F as six ordered categories. */
    static double qwk(String[] a, String[] b) {
        List<String> scale = List.of("F", "E", "D", "C", "B", "A");
        int n = scale.size();
        double[][] observed = new double[n][n];
        double[] rowSum = new double[n];
        double[] colSum = new double[n];
        for (int i = 0; i < a.length; i++) {
            int x = scale.indexOf(a[i]);
            int y = scale.indexOf(b[i]);
            observed[x][y]++;
            rowSum[x]++;
            colSum[y]++;
        }
        double num = 0, den = 0;
        for (int i = 0; i < n; i++) {
            for (int j = 0; j < n; j++) {
                double weight = (i - j) * (i - j) / (double) ((n - 1) * (n - 1));
                num += weight * observed[i][j];
                den += weight * rowSum[i] * colSum[j] / a.length;
            }
        }
        return 1 - num / den;
    }

    /** The grader's view of the sentence model, as the service's offline assistant gives it. */
    static ProseMeaning adapter(SentenceModel model) {
        return model::similarities;
    }

    // --- data sets

    /**
     * Mohler, Bunescu and Mihalcea (2011), University of North Texas: raw/questions, raw/answers (the instructor's),
     * raw/<question> (one student answer a line) and scores/<question>/{me,other} (the two graders, 0-5; the exams'
     * questions, 11.x and 12.x, 0-10 in these files).
     */
    static List<Item> mohler(Path data) throws IOException {
        Map<String, String> questions = prefixed(data.resolve("raw/questions"));
        Map<String, String> references = prefixed(data.resolve("raw/answers"));
        List<Item> items = new ArrayList<>();
        for (Map.Entry<String, String> question : questions.entrySet()) {
            String id = question.getKey();
            Path answers = data.resolve("raw/" + id);
            Path me = data.resolve("scores/" + id + "/me");
            Path other = data.resolve("scores/" + id + "/other");
            if (!Files.exists(answers) || !Files.exists(me) || !Files.exists(other) || !references.containsKey(id)) {
                continue;
            }
            double scale = id.startsWith("11.") || id.startsWith("12.") ? 10 : 5;
            List<String> lines = Files.readAllLines(answers, java.nio.charset.StandardCharsets.ISO_8859_1);
            List<String> first = Files.readAllLines(me);
            List<String> second = Files.readAllLines(other);
            for (int i = 0; i < lines.size(); i++) {
                String answer = clean(lines.get(i).substring(lines.get(i).indexOf(' ') + 1));
                double a = Double.parseDouble(first.get(i).strip()) / scale;
                double b = Double.parseDouble(second.get(i).strip()) / scale;
                items.add(new Item(id, clean(question.getValue()), clean(references.get(id)), answer, (a + b) / 2, b));
            }
        }
        return items;
    }

    private static Map<String, String> prefixed(Path file) throws IOException {
        Map<String, String> byId = new LinkedHashMap<>();
        for (String line : Files.readAllLines(file, java.nio.charset.StandardCharsets.ISO_8859_1)) {
            int space = line.indexOf(' ');
            if (space > 0) {
                byId.put(line.substring(0, space), line.substring(space + 1));
            }
        }
        return byId;
    }

    private static String clean(String text) {
        return text.replace("<br>", " ").replace("<STOP>", "").strip();
    }

    private static final Pattern XML_FIELD = Pattern.compile("<(questionText|referenceAnswer)(?:\\s[^>]*)?>(.*?)</\\1>", Pattern.DOTALL);
    private static final Pattern SAF_ANSWER = Pattern.compile(
            "<studentAnswer[^>]*>.*?<response>(.*?)</response>.*?<score>(.*?)</score>.*?</studentAnswer>",
            Pattern.DOTALL);

    /**
     * SAF, Short Answer Feedback (Filighera, Parihar, Steuer, Meuser, Ochs, 2022): one XML file a question, its text,
     * the reference answer and each student answer's score (one grader); normalised by the question's highest score.
     */
    static List<Item> saf(Path directory) throws IOException {
        List<Item> items = new ArrayList<>();
        try (Stream<Path> files = Files.walk(directory)) {
            for (Path file : files.filter(path -> path.toString().endsWith(".xml")).sorted().toList()) {
                String xml = Files.readString(file);
                Map<String, String> fields = new LinkedHashMap<>();
                Matcher field = XML_FIELD.matcher(xml);
                while (field.find()) {
                    fields.putIfAbsent(field.group(1), unescape(field.group(field.groupCount())));
                }
                List<String[]> answers = new ArrayList<>();
                Matcher answer = SAF_ANSWER.matcher(xml);
                while (answer.find()) {
                    answers.add(new String[] {unescape(answer.group(1)), answer.group(2).strip()});
                }
                double max = answers.stream().mapToDouble(a -> Double.parseDouble(a[1])).max().orElse(1);
                for (String[] a : answers) {
                    items.add(new Item(file.getFileName().toString(), fields.getOrDefault("questionText", ""),
                            fields.getOrDefault("referenceAnswer", ""), a[0], Double.parseDouble(a[1]) / max, Double.NaN));
                }
            }
        }
        return items;
    }

    private static String unescape(String text) {
        return text.replace("&lt;", "<").replace("&gt;", ">").replace("&quot;", "\"").replace("&apos;", "'")
                .replace("&amp;", "&").strip();
    }

    static Optional<String> unused() {
        return Optional.empty();
    }
}
