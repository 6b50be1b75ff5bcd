package com.chatreview.chat;

import static org.assertj.core.api.Assertions.assertThat;

import com.chatreview.support.IntegrationTest;
import com.chatreview.support.TestTenant;
import com.chatreview.tenancy.TenantId;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.jdbc.core.simple.JdbcClient;

/**
 * What a WebSocket handshake reads of a chat, in one statement ({@link ChatManagement#enter}): the chat, its latest
 * event seq, the user created when new and only then, nothing for another tenant's or a missing chat.
 */
@IntegrationTest
class ChatEntryIntegrationTests {

    @Autowired
    ChatManagement chats;

    @Autowired
    ChatsById byId;

    @Autowired
    JdbcClient jdbc;

    @Test
    void aNewUserIsCreatedOnceAndTheLatestSeqIsTheStoredMessagesHighest(TestTenant fresh) {
        TenantId tenant = fresh.tenantId();
        Chat chat = chats.create(tenant, new NewChat("owner", null, Map.of(), Map.of()));
        chats.append(
                tenant, chat.id(), NewMessage.fromUser("one", Map.of(), null).withEventSeq(7L));
        chats.append(
                tenant, chat.id(), NewMessage.fromUser("two", Map.of(), null).withEventSeq(1004L));

        ChatEntry first = chats.enter(tenant, chat.id(), "visitor").orElseThrow();
        ChatEntry again = chats.enter(tenant, chat.id(), "visitor").orElseThrow();
        ChatEntry owner = chats.enter(tenant, chat.id(), "owner").orElseThrow();

        assertThat(first.chat().id()).isEqualTo(chat.id());
        assertThat(first.latestEventSeq()).isEqualTo(1004);
        assertThat(first.userCreated()).isTrue();
        assertThat(again.userCreated()).isFalse();
        assertThat(owner.userCreated()).isFalse();
        assertThat(byId.enterByLink(chat.id()).orElseThrow().latestEventSeq()).isEqualTo(1004);
    }

    @Test
    void aMessageTakingAFreshBlockReservesItInTheWriteThatPlacesItAndIsNumberedItsFirst(TestTenant fresh) {
        TenantId tenant = fresh.tenantId();
        Chat chat = chats.create(tenant, new NewChat("owner", null, Map.of(), Map.of()));
        long before = byId.reserveEventSequence(chat.id(), 10);

        ChatMessage first = chats.append(
                        tenant,
                        chat.id(),
                        NewMessage.fromUser("one", Map.of(), "c1").withFreshEventSeqBlock(1000))
                .message();
        ChatMessage second = chats.append(
                        tenant,
                        chat.id(),
                        NewMessage.fromUser("two", Map.of(), null).withFreshEventSeqBlock(1000))
                .message();
        AppendedMessage repeated = chats.append(
                tenant, chat.id(), NewMessage.fromUser("one", Map.of(), "c1").withFreshEventSeqBlock(1000));

        assertThat(first.eventSeq()).isEqualTo(before + 1);
        assertThat(second.eventSeq()).isEqualTo(before + 1001);
        assertThat(List.of(first.position(), second.position())).containsExactly(1, 2);
        assertThat(repeated.duplicate()).isTrue();
        assertThat(repeated.message().eventSeq())
                .as("a repeat reserves nothing")
                .isEqualTo(before + 1);
        assertThat(byId.reserveEventSequence(chat.id(), 1)).isEqualTo(before + 2001);
    }

    @Test
    void anotherTenantsChatOrNoChatIsEmptyAndCreatesNoUser(TestTenant owner, TestTenant stranger) {
        TenantId tenant = owner.tenantId();
        TenantId other = stranger.tenantId();
        Chat chat = chats.create(tenant, new NewChat("owner", null, Map.of(), Map.of()));

        assertThat(chats.enter(other, chat.id(), "intruder")).isEmpty();
        assertThat(chats.enter(tenant, ChatId.random(), "intruder")).isEmpty();
        assertThat(byId.enterByLink(ChatId.random())).isEmpty();
        assertThat(jdbc.sql("SELECT count(*) FROM users WHERE user_id = 'intruder'")
                        .query(Long.class)
                        .single())
                .isZero();
    }
}
