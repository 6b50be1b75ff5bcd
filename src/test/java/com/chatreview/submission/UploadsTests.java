package com.chatreview.submission;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.springframework.core.io.ByteArrayResource;

/** The content type an upload is stored with, detected from its bytes and name. */
class UploadsTests {

    final Uploads uploads = new Uploads();

    @Test
    void officeDocumentsAreToldFromOtherZipFiles() {
        PreparedUpload upload = uploads.prepare(
                "student-1",
                List.of(
                        file("essay.docx", Fixtures.docx(List.of("Word"))),
                        file("essay.odt", Fixtures.odt(List.of("Writer"))),
                        file("homework.zip", Fixtures.zip(Map.of("a.py", "print(1)\n"))),
                        file("report.pdf", Fixtures.pdf(List.of("PDF"), null)),
                        file("photo.png", Fixtures.png()),
                        file("main.py", "print(1)\n".getBytes(StandardCharsets.UTF_8))));

        assertThat(upload.files())
                .extracting(PreparedUpload.PreparedFile::contentType)
                .containsExactly(
                        "application/vnd.openxmlformats-officedocument.wordprocessingml.document",
                        "application/vnd.oasis.opendocument.text",
                        "application/zip",
                        "application/pdf",
                        "image/png",
                        "text/x-python");
    }

    private static IncomingFile file(String name, byte[] content) {
        return new IncomingFile(name, content.length, new ByteArrayResource(content));
    }
}
