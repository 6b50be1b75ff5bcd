package com.chatreview.moderation.json;

import com.chatreview.moderation.Flag;
import com.chatreview.moderation.SafetyFlags;
import com.chatreview.privacy.TableSection;
import org.springframework.core.annotation.Order;
import org.springframework.stereotype.Component;

/** The moderation module's section of a user's data export: the flags of their messages, as the API lists them. */
@Component
@Order(5)
class FlagsDataExporter extends TableSection<Flag> {

    FlagsDataExporter(SafetyFlags flags) {
        super("moderation_flags", flags::holdsFlagsOf, flags::forEachFlagOf, SafetyFlagBody::of);
    }
}
