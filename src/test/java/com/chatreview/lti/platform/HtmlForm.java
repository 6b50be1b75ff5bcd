package com.chatreview.lti.platform;

import java.net.URI;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

/**
 * The auto-submitting form through which LTI messages travel in the browser (OIDC {@code form_post}, the deep
 * linking response): read out of a page as a browser would submit it, and written as a platform sends one.
 */
public record HtmlForm(URI action, Map<String, String> fields) {

    private static final Pattern FORM = Pattern.compile("<form\\b[^>]*>", Pattern.CASE_INSENSITIVE);
    private static final Pattern INPUT = Pattern.compile("<input\\b[^>]*>", Pattern.CASE_INSENSITIVE);
    private static final Pattern ATTRIBUTE =
            Pattern.compile("([a-zA-Z-]+)\\s*=\\s*(\"([^\"]*)\"|'([^']*)')", Pattern.CASE_INSENSITIVE);

    /** The first form of the page, with its named inputs; {@code base} resolves a relative action. */
    public static HtmlForm in(String page, URI base) {
        Matcher form = FORM.matcher(page);
        if (!form.find()) {
            throw new AssertionError("no form in the page:\n" + page);
        }
        String action = attributes(form.group()).getOrDefault("action", base.toString());
        Map<String, String> fields = new LinkedHashMap<>();
        Matcher input = INPUT.matcher(page);
        input.region(form.end(), page.length());
        while (input.find()) {
            Map<String, String> attributes = attributes(input.group());
            if (attributes.containsKey("name")) {
                fields.put(attributes.get("name"), attributes.getOrDefault("value", ""));
            }
        }
        return new HtmlForm(base.resolve(action), fields);
    }

    /** Every form of the page, in order, each with its own named inputs. */
    public static java.util.List<HtmlForm> all(String page, URI base) {
        java.util.List<HtmlForm> forms = new java.util.ArrayList<>();
        int from = 0;
        while (true) {
            int start = page.toLowerCase().indexOf("<form", from);
            if (start < 0) {
                return forms;
            }
            int end = page.toLowerCase().indexOf("</form>", start);
            String one = page.substring(start, end < 0 ? page.length() : end);
            forms.add(in(one, base));
            from = end < 0 ? page.length() : end + 7;
        }
    }

    /** The form of the page whose field {@code name} holds {@code value}. */
    public static HtmlForm with(String page, URI base, String name, String value) {
        return all(page, base).stream()
                .filter(form -> value.equals(form.fields().get(name)))
                .findFirst()
                .orElseThrow(() -> new AssertionError("no form with " + name + "=" + value + " in:\n" + page));
    }

    /** The same form, a field set as the user types it. */
    public HtmlForm set(String name, String value) {
        Map<String, String> changed = new LinkedHashMap<>(fields);
        changed.put(name, value);
        return new HtmlForm(action, changed);
    }

    private static Map<String, String> attributes(String tag) {
        Map<String, String> attributes = new LinkedHashMap<>();
        Matcher attribute = ATTRIBUTE.matcher(tag);
        while (attribute.find()) {
            String value = attribute.group(3) != null ? attribute.group(3) : attribute.group(4);
            attributes.put(attribute.group(1).toLowerCase(), unescape(value));
        }
        return attributes;
    }

    public String field(String name) {
        String value = fields.get(name);
        if (value == null) {
            throw new AssertionError("the form has no field " + name + ": " + fields.keySet());
        }
        return value;
    }

    public String urlEncoded() {
        return urlEncoded(fields);
    }

    public static String urlEncoded(Map<String, String> fields) {
        return fields.entrySet().stream()
                .map(e -> URLEncoder.encode(e.getKey(), StandardCharsets.UTF_8) + "="
                        + URLEncoder.encode(e.getValue(), StandardCharsets.UTF_8))
                .collect(Collectors.joining("&"));
    }

    /** A page whose form posts itself on load, as a platform's {@code form_post} answer does. */
    public String autoSubmittingPage() {
        StringBuilder page = new StringBuilder("<!doctype html><html><body onload=\"document.forms[0].submit()\">");
        page.append("<form method=\"post\" action=\"")
                .append(escape(action.toString()))
                .append("\">");
        fields.forEach((name, value) -> page.append("<input type=\"hidden\" name=\"")
                .append(escape(name))
                .append("\" value=\"")
                .append(escape(value))
                .append("\">"));
        return page.append("</form></body></html>").toString();
    }

    static String escape(String text) {
        return text.replace("&", "&amp;")
                .replace("<", "&lt;")
                .replace(">", "&gt;")
                .replace("\"", "&quot;")
                .replace("'", "&#39;");
    }

    private static String unescape(String text) {
        return text.replace("&quot;", "\"")
                .replace("&#39;", "'")
                .replace("&#x27;", "'")
                .replace("&lt;", "<")
                .replace("&gt;", ">")
                .replace("&#x2F;", "/")
                .replace("&#47;", "/")
                .replace("&#61;", "=")
                .replace("&amp;", "&");
    }
}
