package com.chatreview.submission;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import org.springframework.stereotype.Component;

/** PLACEHOLDER until the extraction branch is merged. */
@Component
class TextExtraction {
    ExtractedText extract(String fileName, String contentType, InputStream content, int maxChars) {
        try {
            String text = new String(content.readAllBytes(), StandardCharsets.UTF_8);
            return text.length() > maxChars
                    ? new ExtractedText(text.substring(0, maxChars), true, null)
                    : new ExtractedText(text, false, null);
        } catch (IOException e) {
            return new ExtractedText("", false, "could not be read");
        }
    }
}
