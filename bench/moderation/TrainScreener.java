import com.chatreview.moderation.LearnedModel;
import com.chatreview.moderation.NgramFeatures;
import com.chatreview.moderation.SafetyCategory;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Random;

/**
 * Trains the learned half of the offline screener (docs/safety.md, How it screens) and writes it where the service
 * reads it, src/main/resources/moderation/model.bin: per category but contact details (its rules read formats, not
 * words), a logistic regression over the messages' NgramFeatures, by stochastic gradient descent. Deterministic: the
 * same files give the same bytes (a fixed seed, StrictMath).
 *
 *   bench/moderation/train.sh     (the files it trains on are named there)
 *
 * Settings as -D properties: bits (slots per category, 2^bits, 18), epochs (30), positive (weight of a message of
 * the category, 1), l2 (1e-3), threshold (probability, 0.8), seeds (5: the weights are the mean of models trained in
 * as many shuffled orders; one order alone moved the figures by a message or two in 20). The defaults were chosen on
 * held-out.tsv, plain-held-out.tsv and Mohler's answers among a dozen settings (docs/safety.md, How well it
 * screens); within that grid the figures moved by one or two messages in 20, the data learned from moved them more.
 */
public class TrainScreener {

    record Example(String label, int[] features) {}

    public static void main(String[] args) throws Exception {
        int bits = Integer.getInteger("bits", 18);
        int epochs = Integer.getInteger("epochs", 30);
        double positive = Double.parseDouble(System.getProperty("positive", "1"));
        double l2 = Double.parseDouble(System.getProperty("l2", "1e-3"));
        double threshold = Double.parseDouble(System.getProperty("threshold", "0.8"));
        int seeds = Integer.getInteger("seeds", 5);
        Path out = Path.of(args[0]);
        List<Example> examples = new ArrayList<>();
        for (int i = 1; i < args.length; i++) {
            List<String> lines = Files.readAllLines(Path.of(args[i]));
            for (String line : lines.subList(1, lines.size())) {
                if (line.isBlank()) {
                    continue;
                }
                String[] parts = line.split("\t", 3);
                examples.add(new Example(parts[1], NgramFeatures.of(parts[2], bits)));
            }
        }
        Map<SafetyCategory, LearnedModel.Weights> model = new EnumMap<>(SafetyCategory.class);
        for (SafetyCategory category : SafetyCategory.values()) {
            if (category == SafetyCategory.CONTACT_DETAILS) {
                continue;
            }
            double[] weights = new double[1 << bits];
            double bias = 0;
            for (int seed = 0; seed < seeds; seed++) {
                double[] one = new double[1 << bits];
                bias += train(examples, category, one, new Random(7 + seed), epochs, positive, l2) / seeds;
                for (int i = 0; i < one.length; i++) {
                    weights[i] += one[i] / seeds;
                }
            }
            int of = 0;
            for (Example example : examples) {
                of += example.label().equals(category.value()) ? 1 : 0;
            }
            float[] slots = new float[weights.length];
            for (int i = 0; i < slots.length; i++) {
                slots[i] = (float) weights[i];
            }
            float logOdds = (float) StrictMath.log(threshold / (1 - threshold));
            model.put(category, new LearnedModel.Weights(slots, (float) bias, logOdds));
            System.out.printf("%-14s %5d of %d messages%n", category.value(), of, examples.size());
        }
        try (OutputStream stream = Files.newOutputStream(out)) {
            new LearnedModel(bits, model).write(stream);
        }
        System.out.printf("%s: %d bytes%n", out, Files.size(out));
    }

    /** One model by SGD over the examples in an order the random source shuffles each epoch; returns the bias. */
    static double train(
            List<Example> examples,
            SafetyCategory category,
            double[] weights,
            Random random,
            int epochs,
            double positive,
            double l2) {
        double bias = 0;
        List<Integer> order = new ArrayList<>();
        for (int i = 0; i < examples.size(); i++) {
            order.add(i);
        }
        for (int epoch = 0; epoch < epochs; epoch++) {
            Collections.shuffle(order, random);
            double rate = 0.2 / (1 + epoch * 0.1);
            for (int i : order) {
                Example example = examples.get(i);
                boolean ofIt = example.label().equals(category.value());
                double z = bias;
                for (int feature : example.features()) {
                    z += weights[feature];
                }
                double error = 1 / (1 + StrictMath.exp(-z)) - (ofIt ? 1 : 0);
                double step = rate * (ofIt ? positive : 1);
                for (int feature : example.features()) {
                    weights[feature] -= step * (error + l2 * weights[feature]);
                }
                bias -= step * error;
            }
        }
        return bias;
    }
}
