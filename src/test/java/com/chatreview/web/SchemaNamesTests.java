package com.chatreview.web;

import static org.assertj.core.api.Assertions.assertThat;

import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * The OpenAPI document names a body's schema by its record's simple name, and merges two records of one name into
 * one schema: a submission's criterion would be described as a homework's rubric criterion. So no two records of
 * the web adapters share a name.
 */
class SchemaNamesTests {

    @Test
    void noTwoRecordsOfTheWebAdaptersShareASimpleName() {
        List<JavaClass> records = new ClassFileImporter()
                        .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
                        .importPackages("com.chatreview")
                        .stream()
                        .filter(type -> type.isRecord() && type.getPackageName().endsWith(".web"))
                        .toList();
        Map<String, List<String>> byName = records.stream()
                .collect(Collectors.groupingBy(
                        JavaClass::getSimpleName, Collectors.mapping(JavaClass::getName, Collectors.toList())));

        assertThat(records).isNotEmpty();
        assertThat(byName.values()).allSatisfy(names -> assertThat(names).hasSize(1));
    }
}
