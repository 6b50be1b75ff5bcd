package com.chatreview.privacy;

import com.chatreview.privacy.PrivacyErrors.UserNotFound;
import com.chatreview.tenancy.TenantId;
import java.time.Clock;
import java.util.List;
import org.springframework.stereotype.Service;
import tools.jackson.core.JsonGenerator;

/**
 * A user's data, as one JSON object: the user id, when it was exported, then every {@link UserDataExporter}'s
 * section in their order.
 */
@Service
public class UserDataExport {

    private final List<UserDataExporter> sections;
    private final Clock clock;

    UserDataExport(List<UserDataExporter> sections, Clock clock) {
        this.sections = List.copyOf(sections);
        this.clock = clock;
    }

    /** Fails with {@link UserNotFound} before anything is written, when no section holds anything of the user. */
    public void checkExists(TenantId tenantId, String userId) {
        if (!holdsDataOf(tenantId, userId)) {
            throw new UserNotFound(userId);
        }
    }

    boolean holdsDataOf(TenantId tenantId, String userId) {
        return sections.stream().anyMatch(section -> section.holdsDataOf(tenantId, userId));
    }

    public void write(TenantId tenantId, String userId, JsonGenerator json) {
        json.writeStartObject();
        json.writeStringProperty("user_id", userId);
        json.writeStringProperty("tenant_id", tenantId.toString());
        json.writeStringProperty("exported_at", clock.instant().toString());
        for (UserDataExporter section : sections) {
            json.writeName(section.section());
            section.export(tenantId, userId, json);
            json.flush();
        }
        json.writeEndObject();
        json.flush();
    }

    /** The tables the sections export together. */
    List<String> tables() {
        return sections.stream()
                .flatMap(section -> section.tables().stream())
                .distinct()
                .toList();
    }
}
