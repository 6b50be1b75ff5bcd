package com.chatreview.kernel;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class FileNamesTests {

    @Test
    void keepsOnlyTheLastPathSegment() {
        assertThat(FileNames.clean("../../etc/passwd")).isEqualTo("passwd");
        assertThat(FileNames.clean("C:\\Users\\me\\solution.py")).isEqualTo("solution.py");
        assertThat(FileNames.clean("/abs/path/main.java")).isEqualTo("main.java");
    }

    @Test
    void dropsControlAndDirectionCharacters() {
        assertThat(FileNames.clean("evil\u0000name\n.txt")).isEqualTo("evilname.txt");
        assertThat(FileNames.clean("invoice\u202Etxt.exe")).isEqualTo("invoicetxt.exe");
    }

    @Test
    void nothingUsableLeftIsEmpty() {
        assertThat(FileNames.clean("..")).isEmpty();
        assertThat(FileNames.clean("dir/")).isEmpty();
        assertThat(FileNames.clean("   ")).isEmpty();
    }

    @Test
    void longNamesKeepTheirExtension() {
        String cleaned = FileNames.clean("a".repeat(400) + ".java");
        assertThat(cleaned).hasSize(FileNames.MAX_LENGTH).endsWith(".java");
    }
}
