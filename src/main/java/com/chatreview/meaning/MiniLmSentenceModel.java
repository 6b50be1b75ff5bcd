package com.chatreview.meaning;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.function.Supplier;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.stereotype.Component;

/**
 * all-MiniLM-L6-v2, quantized (23 MB), with its WordPiece tokenizer ({@link MiniLmEncoder}): their mean pooled,
 * normalized output is the meaning. Each call runs on the caller's thread (no pool of its own: the CPU it takes is
 * the caller's, as a review's is).
 */
@Component
class MiniLmSentenceModel implements SentenceModel {

    private static final Logger log = LoggerFactory.getLogger(MiniLmSentenceModel.class);

    /** What turns texts into vectors: {@link MiniLmEncoder}, or a test's stand-in. */
    @FunctionalInterface
    interface Encoder {
        float[][] encode(List<String> texts);
    }

    /**
     * Meanings already worked out, by text, up to 16 MB: a homework's reference answer, task and their sentences
     * come again with each of its submissions, and cost the model nothing after the first.
     */
    private final Cache<String, Meaning> known = Caffeine.newBuilder()
            .maximumWeight(16L * 1024 * 1024)
            .<String, Meaning>weigher((text, meaning) -> 2 * text.length() + 4 * DIMENSIONS + 64)
            .build();

    private final Supplier<Encoder> loader;
    private final Object loading = new Object();
    private volatile @Nullable Encoder model;
    private volatile @Nullable String unavailable;

    MiniLmSentenceModel() {
        this(() -> new MiniLmEncoder()::encode);
    }

    /** A model loaded by {@code loader} on first use (a test's stand-in). */
    MiniLmSentenceModel(Supplier<Encoder> loader) {
        this.loader = loader;
    }

    @Override
    public Optional<List<Meaning>> meaningsOf(List<String> texts) {
        Encoder loaded = loaded();
        if (loaded == null) {
            return Optional.empty();
        }
        try {
            return Optional.of(meanings(loaded, texts));
        } catch (RuntimeException failed) {
            // a text the model could not read must not fail the review that asked: it goes on without the model
            log.warn("The sentence model failed on {} texts; they are judged without it", texts.size(), failed);
            return Optional.empty();
        }
    }

    private List<Meaning> meanings(Encoder loaded, List<String> texts) {
        List<String> unknown = new ArrayList<>();
        for (String text : texts) {
            if (!text.isBlank() && known.getIfPresent(text) == null && !unknown.contains(text)) {
                unknown.add(text);
            }
        }
        Map<String, Meaning> worked = new HashMap<>();
        if (!unknown.isEmpty()) {
            float[][] vectors = loaded.encode(unknown);
            for (int i = 0; i < unknown.size(); i++) {
                Meaning meaning = new Meaning(vectors[i]);
                worked.put(unknown.get(i), meaning);
                known.put(unknown.get(i), meaning);
            }
        }
        List<Meaning> meanings = new ArrayList<>(texts.size());
        for (String text : texts) {
            // a blank text means nothing: a zero vector, as close to anything as nothing is (0)
            Meaning meaning = text.isBlank() ? new Meaning(new float[DIMENSIONS]) : worked.get(text);
            if (meaning == null) {
                meaning = known.getIfPresent(text);
            }
            if (meaning == null) {
                // known at the first look, evicted since (the cache full of others' texts): worked out again
                meaning = new Meaning(loaded.encode(List.of(text))[0]);
            }
            meanings.add(meaning);
        }
        return meanings;
    }

    @Override
    public Optional<String> unavailableBecause() {
        return Optional.ofNullable(unavailable);
    }

    private @Nullable Encoder loaded() {
        Encoder current = model;
        if (current != null || unavailable != null) {
            return current;
        }
        synchronized (loading) {
            if (model == null && unavailable == null) {
                String missing = missingNatives();
                if (missing != null) {
                    unavailable = missing;
                } else {
                    long started = System.nanoTime();
                    try {
                        model = loader.get();
                        log.info("The sentence model is loaded ({} ms)", (System.nanoTime() - started) / 1_000_000);
                    } catch (RuntimeException | LinkageError e) {
                        unavailable = "the sentence model did not load: " + e;
                    }
                }
                if (unavailable != null) {
                    log.warn("Prose is graded without the sentence model on this node: {}", unavailable);
                }
            }
            return model;
        }
    }

    /**
     * What the jar lacks to run the model on this platform, or null: the natives of ONNX Runtime and of the
     * tokenizers, which the build puts in for its own platform only (pom.xml). Checked before loading, since the
     * tokenizers' library would otherwise try to download what it misses, and nothing is downloaded here.
     */
    static @Nullable String missingNatives() {
        String os = System.getProperty("os.name", "").toLowerCase(Locale.ROOT);
        String arch = System.getProperty("os.arch", "").toLowerCase(Locale.ROOT);
        String system = os.contains("linux") ? "linux" : os.contains("mac") ? "osx" : os.contains("win") ? "win" : os;
        boolean arm = arch.equals("aarch64") || arch.equals("arm64");
        boolean x86 = arch.equals("amd64") || arch.equals("x86_64");
        if (!arm && !x86) {
            return "no natives for the processor " + arch;
        }
        List<String> needed = List.of(
                "ai/onnxruntime/native/" + system + "-" + (arm ? "aarch64" : "x64") + "/"
                        + System.mapLibraryName("onnxruntime"),
                "native/lib/" + system + "-" + (arm ? "aarch64" : "x86_64") + "/cpu/"
                        + System.mapLibraryName("tokenizers"));
        ClassLoader loader = MiniLmSentenceModel.class.getClassLoader();
        for (String resource : needed) {
            if (loader.getResource(resource) == null) {
                return "the jar has no " + resource + " (it was built for another platform)";
            }
        }
        return null;
    }
}
