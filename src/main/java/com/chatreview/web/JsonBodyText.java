package com.chatreview.web;

import com.chatreview.kernel.InvalidInput;
import com.chatreview.kernel.StorableText;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.lang.reflect.Type;
import java.nio.charset.Charset;
import java.util.ArrayList;
import java.util.List;
import org.jspecify.annotations.Nullable;
import org.springframework.core.MethodParameter;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpInputMessage;
import org.springframework.http.MediaType;
import org.springframework.http.converter.AbstractJacksonHttpMessageConverter;
import org.springframework.http.converter.HttpMessageConverter;
import org.springframework.web.bind.annotation.ControllerAdvice;
import org.springframework.web.servlet.mvc.method.annotation.RequestBodyAdviceAdapter;
import tools.jackson.core.JacksonException;
import tools.jackson.core.JsonParser;
import tools.jackson.core.JsonToken;
import tools.jackson.databind.json.JsonMapper;

/**
 * Every JSON request body is read for text that no stored record can hold, before it is bound: a string or key
 * holding U+0000 (PostgreSQL text and jsonb refuse it) or half of a surrogate pair (an escape of U+D800 to U+DFFF
 * without its other half, which no UTF-8 can carry). Bound and stored, the half pair became {@code ?} in a text column without a word, and
 * in {@code metadata} the answer could not be written (500). Either is 400 {@code VALIDATION_ERROR} naming the
 * field. A body that is not JSON is left to the binding, which says so.
 */
@ControllerAdvice
class JsonBodyText extends RequestBodyAdviceAdapter {

    private final JsonMapper mapper;

    JsonBodyText(JsonMapper mapper) {
        this.mapper = mapper;
    }

    @Override
    public boolean supports(
            MethodParameter parameter, Type targetType, Class<? extends HttpMessageConverter<?>> converterType) {
        return AbstractJacksonHttpMessageConverter.class.isAssignableFrom(converterType);
    }

    @Override
    public HttpInputMessage beforeBodyRead(
            HttpInputMessage message,
            MethodParameter parameter,
            Type targetType,
            Class<? extends HttpMessageConverter<?>> converterType)
            throws IOException {
        byte[] body = message.getBody().readAllBytes();
        MediaType type = message.getHeaders().getContentType();
        String field = firstUnstorable(body, type == null ? null : type.getCharset());
        if (field != null) {
            throw InvalidInput.field(
                    field,
                    "holds U+0000 or half of a surrogate pair (a lone \\uD800-\\uDFFF), which no text can store",
                    "Send text as well-formed UTF-8: no NUL character, and every \\uD800-\\uDBFF escape followed"
                            + " by a \\uDC00-\\uDFFF one.");
        }
        return new HttpInputMessage() {
            @Override
            public InputStream getBody() {
                return new ByteArrayInputStream(body);
            }

            @Override
            public HttpHeaders getHeaders() {
                return message.getHeaders();
            }
        };
    }

    /**
     * The field (dotted path) of the first string or key that cannot be stored; {@code null} when none. Read as the
     * binding will read it: in the charset the request names (a body in ISO-8859-1 is decoded to characters first,
     * and a half pair that UTF-8 bytes cannot even spell passes as an escape then).
     */
    private @Nullable String firstUnstorable(byte[] body, @Nullable Charset charset) {
        try (JsonParser parser = charset == null
                ? mapper.createParser(body)
                : mapper.createParser(new InputStreamReader(new ByteArrayInputStream(body), charset))) {
            for (JsonToken token = parser.nextToken(); token != null; token = parser.nextToken()) {
                if ((token == JsonToken.VALUE_STRING || token == JsonToken.PROPERTY_NAME)
                        && !StorableText.storable(parser.getString())) {
                    return field(parser);
                }
            }
        } catch (JacksonException notJson) {
            // the binding reads it again and answers what is wrong with it
        }
        return null;
    }

    private static String field(JsonParser parser) {
        List<String> names = new ArrayList<>();
        for (String segment :
                parser.streamReadContext().pathAsPointer().toString().split("/")) {
            if (!segment.isEmpty()) {
                names.add(segment.replace("~1", "/").replace("~0", "~"));
            }
        }
        return names.isEmpty() ? "body" : String.join(".", names);
    }
}
