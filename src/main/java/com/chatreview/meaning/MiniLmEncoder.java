package com.chatreview.meaning;

import ai.djl.huggingface.tokenizers.Encoding;
import ai.djl.huggingface.tokenizers.HuggingFaceTokenizer;
import ai.onnxruntime.OnnxTensor;
import ai.onnxruntime.OrtEnvironment;
import ai.onnxruntime.OrtException;
import ai.onnxruntime.OrtSession;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.FloatBuffer;
import java.nio.LongBuffer;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;

/**
 * all-MiniLM-L6-v2 (quantized) run directly on ONNX Runtime: the model and tokenizer files of langchain4j's jar,
 * read with Hugging Face's tokenizers. Written for two measured reasons (docs/benchmarks.md, "Grading written
 * answers"): langchain4j's encoder runs each text as a call of its own (about 1.3 ms of overhead each, 45 sentences
 * 68 ms where one run of them all takes a fraction) and on as many threads as the machine has cores (the process
 * spent twice the caller's CPU), with no way to set either. Here every text's pieces go through the model in batches
 * of similar lengths, on the caller's thread alone. A text longer than {@value #MAX_TOKENS} tokens (the length the
 * model was trained on) is read in pieces of that length, and its meaning is theirs averaged by their tokens.
 */
final class MiniLmEncoder implements AutoCloseable {

    static final int MAX_TOKENS = 256;
    /** Pieces run through the model at once: padded to the longest of them, so of similar lengths. */
    private static final int BATCH = 16;

    private final OrtEnvironment environment = OrtEnvironment.getEnvironment();
    private final OrtSession session;
    private final HuggingFaceTokenizer tokenizer;
    private final long start;
    private final long end;

    MiniLmEncoder() {
        try (OrtSession.SessionOptions options = new OrtSession.SessionOptions()) {
            options.setIntraOpNumThreads(1);
            options.setInterOpNumThreads(1);
            session = environment.createSession(resource("/all-minilm-l6-v2-q.onnx"), options);
            try (InputStream json = stream("/all-minilm-l6-v2-q-tokenizer.json")) {
                tokenizer = HuggingFaceTokenizer.newInstance(json, Map.of("truncation", "false", "padding", "false"));
            }
        } catch (OrtException e) {
            throw new IllegalStateException("ONNX Runtime could not load the sentence model", e);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        long[] special = tokenizer.encode("", true, false).getIds();
        start = special[0];
        end = special[special.length - 1];
    }

    /** A piece of a text: its tokens, [CLS] and [SEP] included. */
    private record Piece(int text, long[] ids) {}

    /** The texts' vectors, unit length, in their order (none of them blank). */
    float[][] encode(List<String> texts) {
        List<Piece> pieces = new ArrayList<>();
        for (int text = 0; text < texts.size(); text++) {
            Encoding encoding = tokenizer.encode(texts.get(text), false, false);
            long[] ids = encoding.getIds();
            for (int from = 0; from < ids.length || from == 0; from += MAX_TOKENS - 2) {
                int to = Math.min(ids.length, from + MAX_TOKENS - 2);
                long[] piece = new long[to - from + 2];
                piece[0] = start;
                System.arraycopy(ids, from, piece, 1, to - from);
                piece[piece.length - 1] = end;
                pieces.add(new Piece(text, piece));
            }
        }
        pieces.sort(Comparator.comparingInt(piece -> piece.ids().length));
        int dimensions = SentenceModel.DIMENSIONS;
        float[][] sums = new float[texts.size()][dimensions];
        for (int from = 0; from < pieces.size(); ) {
            // a batch is padded to its longest piece: pieces of about one length go together
            int shortest = pieces.get(from).ids().length;
            int to = from + 1;
            while (to < pieces.size()
                    && to - from < BATCH
                    && pieces.get(to).ids().length <= shortest + shortest / 4 + 8) {
                to++;
            }
            List<Piece> batch = pieces.subList(from, to);
            from = to;
            float[][] pooled = run(batch);
            for (int i = 0; i < batch.size(); i++) {
                int tokens = batch.get(i).ids().length;
                float[] sum = sums[batch.get(i).text()];
                for (int d = 0; d < dimensions; d++) {
                    sum[d] += pooled[i][d] * tokens;
                }
            }
        }
        for (float[] vector : sums) {
            double norm = 0;
            for (float value : vector) {
                norm += value * value;
            }
            float scale = norm == 0 ? 0 : (float) (1 / Math.sqrt(norm));
            for (int d = 0; d < vector.length; d++) {
                vector[d] *= scale;
            }
        }
        return sums;
    }

    /** One run of the model over pieces padded to the longest: each piece's mean over its tokens. */
    private float[][] run(List<Piece> batch) {
        int length = batch.stream().mapToInt(piece -> piece.ids().length).max().orElse(2);
        long[] shape = {batch.size(), length};
        LongBuffer ids = LongBuffer.allocate(batch.size() * length);
        LongBuffer mask = LongBuffer.allocate(batch.size() * length);
        for (int i = 0; i < batch.size(); i++) {
            long[] piece = batch.get(i).ids();
            ids.put(i * length, piece);
            for (int t = 0; t < piece.length; t++) {
                mask.put(i * length + t, 1);
            }
        }
        try (OnnxTensor idTensor = OnnxTensor.createTensor(environment, ids, shape);
                OnnxTensor maskTensor = OnnxTensor.createTensor(environment, mask, shape);
                OnnxTensor typeTensor =
                        OnnxTensor.createTensor(environment, LongBuffer.allocate(batch.size() * length), shape);
                OrtSession.Result result = session.run(
                        Map.of("input_ids", idTensor, "attention_mask", maskTensor, "token_type_ids", typeTensor))) {
            // read in place: the hidden states as Java arrays would be a copy of about a megabyte a page
            FloatBuffer hidden = ((OnnxTensor) result.get(0)).getFloatBuffer();
            int dimensions = SentenceModel.DIMENSIONS;
            float[][] pooled = new float[batch.size()][dimensions];
            for (int i = 0; i < batch.size(); i++) {
                int tokens = batch.get(i).ids().length;
                float[] sum = pooled[i];
                for (int t = 0; t < tokens; t++) {
                    int at = (i * length + t) * dimensions;
                    for (int d = 0; d < dimensions; d++) {
                        sum[d] += hidden.get(at + d);
                    }
                }
                for (int d = 0; d < dimensions; d++) {
                    sum[d] /= tokens;
                }
            }
            return pooled;
        } catch (OrtException e) {
            throw new IllegalStateException("The sentence model could not run", e);
        }
    }

    private static byte[] resource(String name) throws IOException {
        try (InputStream in = stream(name)) {
            return in.readAllBytes();
        }
    }

    private static InputStream stream(String name) throws IOException {
        InputStream in = MiniLmEncoder.class.getResourceAsStream(name);
        if (in == null) {
            throw new IOException("no " + name + " on the class path");
        }
        return in;
    }

    @Override
    public void close() throws OrtException {
        session.close();
        tokenizer.close();
    }
}
