package com.chatreview.moderation;

import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;

/**
 * Screens what a student wrote. Never throws for what the text holds, and answers within microseconds (the offline
 * screener) or its provider's timeout: a message is screened before it is answered.
 */
public interface SafetyScreener {

    /** The longest piece of a document screened at once: a few paragraphs. */
    int PIECE = 2_000;

    Screening screen(String text);

    /**
     * Screens a handed-in document (docs/safety.md, Handed-in files): paragraph by paragraph, in pieces of at most
     * {@value #PIECE} characters, for every category but contact details (a student's name and e-mail address at the
     * top of an essay is no alarm). The categories of every piece together, and who screened.
     */
    default Screening screenDocument(String text) {
        Set<SafetyCategory> found = EnumSet.noneOf(SafetyCategory.class);
        String screenedBy = null;
        String unavailable = null;
        for (String piece : pieces(text)) {
            Screening screening = screen(piece);
            found.addAll(screening.categories());
            screenedBy = screenedBy == null ? screening.screenedBy() : screenedBy;
            unavailable = unavailable == null ? screening.unavailable() : unavailable;
        }
        found.remove(SafetyCategory.CONTACT_DETAILS);
        Screening all = Screening.of(found, screenedBy == null ? "none" : screenedBy);
        return unavailable == null ? all : all.fellBack(unavailable);
    }

    /** The text cut at blank lines into pieces of at most {@value #PIECE} characters (a longer paragraph is cut). */
    static List<String> pieces(String text) {
        List<String> pieces = new ArrayList<>();
        StringBuilder piece = new StringBuilder();
        for (String paragraph : text.split("\\n\\s*\\n")) {
            for (int start = 0; start < paragraph.length(); start += PIECE) {
                String part = paragraph.substring(start, Math.min(paragraph.length(), start + PIECE));
                if (piece.length() + part.length() + 1 > PIECE && !piece.isEmpty()) {
                    pieces.add(piece.toString());
                    piece.setLength(0);
                }
                piece.append(part).append('\n');
            }
        }
        if (!piece.isEmpty()) {
            pieces.add(piece.toString());
        }
        return pieces;
    }
}
