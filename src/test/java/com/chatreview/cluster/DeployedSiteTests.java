package com.chatreview.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/** What the deployed load balancer adds to answers names nothing inside: no node, no internal address. */
class DeployedSiteTests {

    @Test
    void noHeaderTheDeployedNginxAddsNamesANodeOrAnInternalAddress() throws Exception {
        String site =
                Files.readString(Path.of(System.getProperty("basedir", "."), "deploy/nginx/chat-review.conf.template"));

        assertThat(site.lines().map(String::strip).filter(line -> line.startsWith("add_header")))
                .noneMatch(line -> line.matches(".*\\$(upstream_\\w+|server_addr|server_port|hostname).*"));
    }
}
