package com.chatreview.moderation;

import java.io.BufferedInputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * The learned half of the offline screener (docs/safety.md, How it screens): per category, a logistic regression over
 * a text's {@link NgramFeatures}, trained by bench/moderation/TrainScreener.java on the labelled messages of
 * bench/moderation and shipped as {@code moderation/model.bin}. A text longer than a message is read in windows of a
 * few sentences, each on its own: harm is said in a sentence or two, and a long essay's ordinary words would
 * otherwise outweigh it. Public for the trainer, which builds and writes one.
 */
public final class LearnedModel {

    static final String RESOURCE = "moderation/model.bin";

    /** The longest text read as one window, in normalized characters: longer than any message it learned from. */
    static final int WINDOW = 600;

    /** The longest run of sentences read together in a longer text: two or three sentences. */
    static final int SPAN = 200;

    /**
     * The least distance between the starts of two runs: a text of many tiny sentences ("a. a. a.") costs a few times
     * its length, not {@value #SPAN} times.
     */
    static final int STRIDE = SPAN / 4;

    private static final int MAGIC = 0x43525332;

    /**
     * A category's weights as the trainer makes them: one per feature slot, the bias, and the score (a log-odds)
     * above which a window is flagged.
     */
    public record Weights(float[] slots, float bias, float threshold) {}

    /**
     * A category's weights as the service holds and ships them: each slot a byte, times the category's scale (a
     * quarter of the size, and the scores move by far less than the gap between a message and its threshold).
     */
    private record Quantized(byte[] slots, float scale, float bias, float threshold) {

        static Quantized of(Weights weights) {
            float largest = 0;
            for (float slot : weights.slots()) {
                largest = Math.max(largest, Math.abs(slot));
            }
            float scale = largest == 0 ? 1 : largest / 127;
            byte[] slots = new byte[weights.slots().length];
            for (int i = 0; i < slots.length; i++) {
                slots[i] = (byte) Math.round(weights.slots()[i] / scale);
            }
            return new Quantized(slots, scale, weights.bias(), weights.threshold());
        }

        double score(int[] features) {
            int sum = 0;
            for (int feature : features) {
                sum += slots[feature];
            }
            return bias + (double) scale * sum;
        }
    }

    private final int bits;
    private final Map<SafetyCategory, Quantized> categories;

    /** A model of the trainer's weights, each category's quantized to bytes as it will be shipped. */
    public LearnedModel(int bits, Map<SafetyCategory, Weights> categories) {
        this.bits = bits;
        this.categories = new EnumMap<>(SafetyCategory.class);
        categories.forEach((category, weights) -> {
            if (weights.slots().length != 1 << bits) {
                throw new IllegalArgumentException("a weight per slot: " + (1 << bits));
            }
            this.categories.put(category, Quantized.of(weights));
        });
    }

    private LearnedModel(Map<SafetyCategory, Quantized> categories, int bits) {
        this.bits = bits;
        this.categories = categories;
    }

    /** The model shipped with the service. */
    public static LearnedModel shipped() {
        try (InputStream in = LearnedModel.class.getClassLoader().getResourceAsStream(RESOURCE)) {
            return read(new BufferedInputStream(Objects.requireNonNull(in, RESOURCE)));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    public static LearnedModel read(InputStream in) throws IOException {
        DataInputStream data = new DataInputStream(in);
        if (data.readInt() != MAGIC) {
            throw new IOException("not a screening model");
        }
        int bits = data.readInt();
        int count = data.readInt();
        Map<SafetyCategory, Quantized> categories = new EnumMap<>(SafetyCategory.class);
        for (int c = 0; c < count; c++) {
            String name = data.readUTF();
            SafetyCategory category = SafetyCategory.of(name).orElseThrow(() -> new IOException("no category " + name));
            float scale = data.readFloat();
            float bias = data.readFloat();
            float threshold = data.readFloat();
            byte[] slots = new byte[1 << bits];
            data.readFully(slots);
            categories.put(category, new Quantized(slots, scale, bias, threshold));
        }
        return new LearnedModel(categories, bits);
    }

    public void write(OutputStream out) throws IOException {
        DataOutputStream data = new DataOutputStream(out);
        data.writeInt(MAGIC);
        data.writeInt(bits);
        data.writeInt(categories.size());
        for (var entry : categories.entrySet()) {
            data.writeUTF(entry.getKey().value());
            data.writeFloat(entry.getValue().scale());
            data.writeFloat(entry.getValue().bias());
            data.writeFloat(entry.getValue().threshold());
            data.write(entry.getValue().slots());
        }
        data.flush();
    }

    public int bits() {
        return bits;
    }

    /** The categories some window of the text scores above the category's threshold in. */
    public Set<SafetyCategory> categories(String text) {
        return categoriesOfNormalized(OfflineScreener.normalized(text));
    }

    Set<SafetyCategory> categoriesOfNormalized(String normalized) {
        Set<SafetyCategory> found = EnumSet.noneOf(SafetyCategory.class);
        for (String window : windows(normalized)) {
            int[] features = NgramFeatures.ofNormalized(window, bits);
            categories.forEach((category, weights) -> {
                if (!found.contains(category) && weights.score(features) > weights.threshold()) {
                    found.add(category);
                }
            });
            if (found.size() == categories.size()) {
                break;
            }
        }
        return found;
    }

    /** The log-odds of the category for the whole text, read as one window (for the trainer). */
    public double score(SafetyCategory category, String text) {
        Quantized weights = categories.get(category);
        return weights == null ? Double.NEGATIVE_INFINITY : weights.score(NgramFeatures.of(text, bits));
    }

    /**
     * What of a text is read on its own: the whole text when it is no longer than a message ({@value #WINDOW}
     * characters); else runs of sentences of up to {@value #SPAN} characters, each starting at a sentence at least
     * {@value #STRIDE} characters after the last run's start, or at one the last run did not hold whole (runs
     * overlap, so two sentences that say it together are read together, and every sentence is read).
     */
    static List<String> windows(String normalized) {
        if (normalized.length() <= WINDOW) {
            return List.of(normalized);
        }
        List<String> sentences = sentences(normalized);
        List<String> windows = new ArrayList<>();
        int offset = 0;
        int lastStart = -STRIDE;
        int lastEnd = 0;
        for (int first = 0; first < sentences.size(); first++) {
            int end = offset + sentences.get(first).length();
            if (offset - lastStart >= STRIDE || end > lastEnd) {
                StringBuilder window = new StringBuilder(sentences.get(first));
                for (int next = first + 1;
                        next < sentences.size()
                                && window.length() + sentences.get(next).length() <= SPAN;
                        next++) {
                    window.append(sentences.get(next));
                }
                windows.add(window.toString());
                lastStart = offset;
                lastEnd = offset + window.length();
            }
            offset = end;
        }
        return windows;
    }

    /**
     * The text cut after each sentence's end; a sentence longer than {@value #SPAN} characters is cut at its last space
     * before that, or at {@value #SPAN} when it has none there.
     */
    static List<String> sentences(String normalized) {
        List<String> sentences = new ArrayList<>();
        int start = 0;
        int lastSpace = -1;
        for (int i = 0; i < normalized.length(); i++) {
            if (i - start >= SPAN) {
                int cut = lastSpace > start ? lastSpace + 1 : i;
                sentences.add(normalized.substring(start, cut));
                start = cut;
            }
            if (normalized.charAt(i) != ' ') {
                continue;
            }
            char before = i > 0 ? normalized.charAt(i - 1) : ' ';
            if (before == '.' || before == '!' || before == '?' || before == ';') {
                sentences.add(normalized.substring(start, i + 1));
                start = i + 1;
            }
            lastSpace = i;
        }
        if (start < normalized.length()) {
            sentences.add(normalized.substring(start));
        }
        return sentences;
    }
}
