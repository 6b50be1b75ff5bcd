package com.chatreview.moderation.json;

import com.chatreview.moderation.SafetyFlags;
import com.chatreview.privacy.UserDataExporter;
import com.chatreview.tenancy.TenantId;
import java.util.Set;
import org.springframework.core.annotation.Order;
import org.springframework.stereotype.Component;
import tools.jackson.core.JsonGenerator;

/** The moderation module's section of a user's data export: the flags of their messages, as the API lists them. */
@Component
@Order(5)
class FlagsDataExporter implements UserDataExporter {

    private final SafetyFlags flags;

    FlagsDataExporter(SafetyFlags flags) {
        this.flags = flags;
    }

    @Override
    public String section() {
        return "moderation_flags";
    }

    @Override
    public Set<String> tables() {
        return Set.of("moderation_flags");
    }

    @Override
    public boolean holdsDataOf(TenantId tenantId, String userId) {
        return flags.holdsFlagsOf(tenantId, userId);
    }

    @Override
    public void export(TenantId tenantId, String userId, JsonGenerator json) {
        json.writeStartArray();
        flags.forEachFlagOf(tenantId, userId, flag -> json.writePOJO(SafetyFlagBody.of(flag)));
        json.writeEndArray();
    }
}
