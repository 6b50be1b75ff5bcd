package com.chatreview.submission;

import java.awt.image.BufferedImage;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.zip.CRC32;
import java.util.zip.ZipEntry;
import java.util.zip.ZipOutputStream;
import javax.imageio.ImageIO;
import org.apache.pdfbox.pdmodel.PDDocument;
import org.apache.pdfbox.pdmodel.PDDocumentNameDictionary;
import org.apache.pdfbox.pdmodel.PDEmbeddedFilesNameTreeNode;
import org.apache.pdfbox.pdmodel.PDPage;
import org.apache.pdfbox.pdmodel.PDPageContentStream;
import org.apache.pdfbox.pdmodel.common.filespecification.PDComplexFileSpecification;
import org.apache.pdfbox.pdmodel.common.filespecification.PDEmbeddedFile;
import org.apache.pdfbox.pdmodel.encryption.AccessPermission;
import org.apache.pdfbox.pdmodel.encryption.StandardProtectionPolicy;
import org.apache.pdfbox.pdmodel.font.PDType1Font;
import org.apache.pdfbox.pdmodel.font.Standard14Fonts;
import org.apache.poi.poifs.crypt.EncryptionInfo;
import org.apache.poi.poifs.crypt.EncryptionMode;
import org.apache.poi.poifs.crypt.Encryptor;
import org.apache.poi.poifs.filesystem.POIFSFileSystem;
import org.apache.poi.xwpf.usermodel.XWPFDocument;
import org.jspecify.annotations.Nullable;

/** Files as students upload them, made here so that no binary is committed. */
public final class Fixtures {

    private Fixtures() {}

    /** A one-page PDF with these lines, and a text file attached to it when {@code attachment} is not null. */
    public static byte[] pdf(List<String> lines, @Nullable String attachment) {
        try (PDDocument document = new PDDocument()) {
            write(document, lines);
            if (attachment != null) {
                attach(document, "attached.txt", attachment.getBytes(StandardCharsets.UTF_8));
            }
            return saved(document);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** A PDF that opens only with a password. */
    public static byte[] encryptedPdf(String line) {
        try (PDDocument document = new PDDocument()) {
            write(document, List.of(line));
            StandardProtectionPolicy policy = new StandardProtectionPolicy("owner", "secret", new AccessPermission());
            policy.setEncryptionKeyLength(256);
            document.protect(policy);
            return saved(document);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    public static byte[] docx(List<String> paragraphs) {
        try (XWPFDocument document = new XWPFDocument()) {
            for (String paragraph : paragraphs) {
                document.createParagraph().createRun().setText(paragraph);
            }
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            document.write(out);
            return out.toByteArray();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** A DOCX encrypted with a password, as Word saves it (an OLE2 file around the encrypted package). */
    public static byte[] encryptedDocx(List<String> paragraphs) {
        try (POIFSFileSystem fileSystem = new POIFSFileSystem()) {
            Encryptor encryptor = new EncryptionInfo(EncryptionMode.agile).getEncryptor();
            encryptor.confirmPassword("secret");
            try (OutputStream encrypted = encryptor.getDataStream(fileSystem)) {
                encrypted.write(docx(paragraphs));
            }
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            fileSystem.writeFilesystem(out);
            return out.toByteArray();
        } catch (IOException | java.security.GeneralSecurityException e) {
            throw new IllegalStateException(e);
        }
    }

    /** The least an ODT needs: its mimetype first and stored, and content.xml. */
    public static byte[] odt(List<String> paragraphs) {
        StringBuilder body = new StringBuilder();
        for (String paragraph : paragraphs) {
            body.append("<text:p>").append(paragraph).append("</text:p>");
        }
        String content = """
                <?xml version="1.0" encoding="UTF-8"?>
                <office:document-content xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0" \
                xmlns:text="urn:oasis:names:tc:opendocument:xmlns:text:1.0" office:version="1.2">\
                <office:body><office:text>%s</office:text></office:body></office:document-content>""".formatted(body);
        String manifest = """
                <?xml version="1.0" encoding="UTF-8"?>
                <manifest:manifest xmlns:manifest="urn:oasis:names:tc:opendocument:xmlns:manifest:1.0" \
                manifest:version="1.2">\
                <manifest:file-entry manifest:full-path="/" \
                manifest:media-type="application/vnd.oasis.opendocument.text"/>\
                <manifest:file-entry manifest:full-path="content.xml" manifest:media-type="text/xml"/>\
                </manifest:manifest>""";
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try (ZipOutputStream zip = new ZipOutputStream(out)) {
            byte[] mimetype = "application/vnd.oasis.opendocument.text".getBytes(StandardCharsets.US_ASCII);
            ZipEntry first = new ZipEntry("mimetype");
            first.setMethod(ZipEntry.STORED);
            first.setSize(mimetype.length);
            CRC32 crc = new CRC32();
            crc.update(mimetype);
            first.setCrc(crc.getValue());
            zip.putNextEntry(first);
            zip.write(mimetype);
            zip.closeEntry();
            entry(zip, "content.xml", content.getBytes(StandardCharsets.UTF_8));
            entry(zip, "META-INF/manifest.xml", manifest.getBytes(StandardCharsets.UTF_8));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return out.toByteArray();
    }

    public static byte[] zip(Map<String, String> files) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try (ZipOutputStream zip = new ZipOutputStream(out)) {
            for (Map.Entry<String, String> file : files.entrySet()) {
                entry(zip, file.getKey(), file.getValue().getBytes(StandardCharsets.UTF_8));
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return out.toByteArray();
    }

    public static byte[] png() {
        BufferedImage image = new BufferedImage(8, 8, BufferedImage.TYPE_INT_RGB);
        image.setRGB(3, 3, 0xFF8800);
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try {
            ImageIO.write(image, "png", out);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return out.toByteArray();
    }

    private static void write(PDDocument document, List<String> lines) throws IOException {
        PDPage page = new PDPage();
        document.addPage(page);
        try (PDPageContentStream text = new PDPageContentStream(document, page)) {
            text.beginText();
            text.setFont(new PDType1Font(Standard14Fonts.FontName.HELVETICA), 12);
            text.newLineAtOffset(72, 700);
            for (String line : lines) {
                text.showText(line);
                text.newLineAtOffset(0, -16);
            }
            text.endText();
        }
    }

    private static void attach(PDDocument document, String name, byte[] content) throws IOException {
        PDEmbeddedFile embedded = new PDEmbeddedFile(document, new ByteArrayInputStream(content));
        embedded.setSubtype("text/plain");
        embedded.setSize(content.length);
        PDComplexFileSpecification file = new PDComplexFileSpecification();
        file.setFile(name);
        file.setEmbeddedFile(embedded);
        PDEmbeddedFilesNameTreeNode tree = new PDEmbeddedFilesNameTreeNode();
        tree.setNames(Map.of(name, file));
        PDDocumentNameDictionary names = new PDDocumentNameDictionary(document.getDocumentCatalog());
        names.setEmbeddedFiles(tree);
        document.getDocumentCatalog().setNames(names);
    }

    private static byte[] saved(PDDocument document) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        document.save(out);
        return out.toByteArray();
    }

    private static void entry(ZipOutputStream zip, String name, byte[] content) throws IOException {
        zip.putNextEntry(new ZipEntry(name));
        zip.write(content);
        zip.closeEntry();
    }
}
