package com.chatreview.submission;

import com.chatreview.kernel.FieldProblem;
import com.chatreview.kernel.FileNames;
import com.chatreview.kernel.InvalidInput;
import com.chatreview.kernel.PayloadTooLarge;
import com.chatreview.kernel.Sha256;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.security.DigestInputStream;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.List;
import org.apache.tika.Tika;
import org.apache.tika.io.TikaInputStream;
import org.springframework.stereotype.Component;

/**
 * Checks an upload against docs/api.md, Homework before anything is stored: a studentId, 1 to 10 files, none empty,
 * none over 10 MiB. File names are cleaned; the content type is detected from the bytes and the name, never
 * taken from the client (a {@link TikaInputStream}, so that the zip-container detectors open DOCX and ODT files as
 * zip files rather than guess from a stream).
 */
@Component
class Uploads {

    static final int MAX_FILES = 10;
    static final long MAX_FILE_BYTES = 10L * 1024 * 1024;
    private static final int MAX_STUDENT_ID = 255;
    private static final String FIX = "Send multipart/form-data with a studentId field and 1 to 10 non-empty files"
            + " parts, each at most 10 MiB.";

    private final Tika tika = new Tika();

    PreparedUpload prepare(String studentId, List<IncomingFile> files) {
        List<FieldProblem> problems = new ArrayList<>();
        if (studentId == null || studentId.isBlank()) {
            problems.add(new FieldProblem("studentId", "is required"));
        } else if (studentId.length() > MAX_STUDENT_ID) {
            problems.add(new FieldProblem("studentId", "must be at most " + MAX_STUDENT_ID + " characters"));
        }
        int count = files == null ? 0 : files.size();
        if (count == 0) {
            problems.add(new FieldProblem("files", "at least one file is required"));
        } else if (count > MAX_FILES) {
            problems.add(new FieldProblem("files", "at most " + MAX_FILES + " files are allowed, got " + count));
        } else {
            for (int i = 0; i < count; i++) {
                if (files.get(i).size() == 0) {
                    problems.add(new FieldProblem("files[" + i + "]", "is empty"));
                }
            }
        }
        if (!problems.isEmpty()) {
            throw InvalidInput.fields(problems, FIX);
        }
        List<PreparedUpload.PreparedFile> prepared = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            prepared.add(prepare(files.get(i), i));
        }
        return new PreparedUpload(studentId.strip(), prepared);
    }

    private PreparedUpload.PreparedFile prepare(IncomingFile file, int index) {
        if (file.size() > MAX_FILE_BYTES) {
            throw new PayloadTooLarge("files[" + index + "] is larger than 10 MiB", FIX);
        }
        String cleaned = file.originalName() == null ? "" : FileNames.clean(file.originalName());
        String name = cleaned.isEmpty() ? "file-" + (index + 1) : cleaned;
        try {
            MessageDigest digest = Sha256.digest();
            try (InputStream in = new DigestInputStream(file.content().getInputStream(), digest)) {
                in.transferTo(OutputStreamSink.INSTANCE);
            }
            String contentType;
            try (InputStream in = TikaInputStream.get(file.content().getInputStream())) {
                contentType = tika.detect(in, name);
            }
            return new PreparedUpload.PreparedFile(name, file.size(), digest.digest(), contentType, file.content());
        } catch (IOException e) {
            throw new UncheckedIOException("Could not read the uploaded file " + name, e);
        }
    }

    /** Discards what it is given: the digest stream has already seen the bytes. */
    private static final class OutputStreamSink extends java.io.OutputStream {
        static final OutputStreamSink INSTANCE = new OutputStreamSink();

        @Override
        public void write(int b) {}

        @Override
        public void write(byte[] b, int off, int len) {}
    }
}
