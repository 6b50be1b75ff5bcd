package com.chatreview.web;

import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import org.springframework.boot.jackson.autoconfigure.JsonMapperBuilderCustomizer;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import tools.jackson.core.JsonGenerator;
import tools.jackson.core.StreamReadFeature;
import tools.jackson.databind.DeserializationFeature;
import tools.jackson.databind.MapperFeature;
import tools.jackson.databind.SerializationContext;
import tools.jackson.databind.ValueSerializer;
import tools.jackson.databind.cfg.CoercionAction;
import tools.jackson.databind.cfg.CoercionInputShape;
import tools.jackson.databind.module.SimpleModule;
import tools.jackson.databind.type.LogicalType;
import tools.jackson.module.blackbird.BlackbirdModule;

/**
 * JSON as the interface writes it (docs/api.md, Conventions): timestamps in UTC with {@code Z} and always three digits of
 * milliseconds; a field of the wrong type is an error, never silently converted ({@code "user_id": 42} is 400).
 */
@Configuration(proxyBeanMethods = false)
class JsonConventions {

    static final DateTimeFormatter TIMESTAMP =
            DateTimeFormatter.ofPattern("yyyy-MM-dd'T'HH:mm:ss.SSS'Z'").withZone(ZoneOffset.UTC);

    @Bean
    JsonMapperBuilderCustomizer interfaceJsonConventions() {
        SimpleModule timestamps =
                new SimpleModule("timestamps").addSerializer(Instant.class, new TimestampSerializer());
        return builder -> builder.addModule(timestamps)
                .addModule(new BlackbirdModule())
                .disable(MapperFeature.SORT_PROPERTIES_ALPHABETICALLY)
                .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
                .disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
                .enable(StreamReadFeature.STRICT_DUPLICATE_DETECTION)
                .withCoercionConfig(
                        LogicalType.Textual,
                        strings -> strings.setCoercion(CoercionInputShape.Integer, CoercionAction.Fail)
                                .setCoercion(CoercionInputShape.Float, CoercionAction.Fail)
                                .setCoercion(CoercionInputShape.Boolean, CoercionAction.Fail))
                .withCoercionConfigDefaults(all -> all.setCoercion(CoercionInputShape.String, CoercionAction.Fail)
                        .setCoercion(CoercionInputShape.EmptyString, CoercionAction.Fail));
    }

    /**
     * Writes {@link #TIMESTAMP}'s text. The years 1000 to 9999 are written digit by digit (a page of messages
     * holds fifty timestamps, and the formatter was a tenth of the CPU of serving it); any other goes to the
     * formatter.
     */
    static final class TimestampSerializer extends ValueSerializer<Instant> {

        private static final long FIRST_SECOND =
                LocalDate.of(1000, 1, 1).toEpochSecond(LocalTime.MIDNIGHT, ZoneOffset.UTC);
        private static final long AFTER_LAST_SECOND =
                LocalDate.of(10000, 1, 1).toEpochSecond(LocalTime.MIDNIGHT, ZoneOffset.UTC);

        @Override
        public void serialize(Instant value, JsonGenerator generator, SerializationContext context) {
            long seconds = value.getEpochSecond();
            if (seconds < FIRST_SECOND || seconds >= AFTER_LAST_SECOND) {
                generator.writeString(TIMESTAMP.format(value));
                return;
            }
            char[] text = new char[24];
            LocalDateTime time = LocalDateTime.ofEpochSecond(seconds, value.getNano(), ZoneOffset.UTC);
            digits(text, 0, time.getYear(), 4);
            text[4] = '-';
            digits(text, 5, time.getMonthValue(), 2);
            text[7] = '-';
            digits(text, 8, time.getDayOfMonth(), 2);
            text[10] = 'T';
            digits(text, 11, time.getHour(), 2);
            text[13] = ':';
            digits(text, 14, time.getMinute(), 2);
            text[16] = ':';
            digits(text, 17, time.getSecond(), 2);
            text[19] = '.';
            digits(text, 20, value.getNano() / 1_000_000, 3);
            text[23] = 'Z';
            generator.writeString(text, 0, text.length);
        }

        private static void digits(char[] text, int at, int value, int count) {
            for (int i = at + count - 1; i >= at; i--) {
                text[i] = (char) ('0' + value % 10);
                value /= 10;
            }
        }
    }
}
