package com.chatreview.conversation;

import static org.assertj.core.api.Assertions.assertThat;
import static org.mockito.Mockito.mock;
import static org.mockito.Mockito.times;
import static org.mockito.Mockito.verify;
import static org.mockito.Mockito.when;

import com.chatreview.chat.ChatId;
import com.chatreview.chat.ChatsById;
import com.chatreview.database.PatientWrites;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Duration;
import org.junit.jupiter.api.Test;

class EventSequenceTests {

    final ChatId chat = ChatId.random();
    final ChatsById chats = mock(ChatsById.class);
    final EventSequence sequence = new EventSequence(
            chats,
            new PatientWrites(() -> true, new SimpleMeterRegistry()),
            new ConversationSettings(
                    50,
                    Duration.ofSeconds(15),
                    Duration.ofSeconds(10),
                    Duration.ofMinutes(15),
                    Duration.ofSeconds(30)));

    @Test
    void numbersComeFromReservedBlocksAndKeepIncreasing() {
        when(chats.reserveEventSequence(chat, EventSequence.BLOCK)).thenReturn(1000L, 5000L);

        assertThat(sequence.next(chat)).isEqualTo(1);
        for (int i = 2; i <= EventSequence.BLOCK; i++) {
            assertThat(sequence.next(chat)).isEqualTo(i);
        }
        assertThat(sequence.next(chat)).isEqualTo(4001);
    }

    @Test
    void theLatestIsTheLatestSentNotTheLatestTaken() {
        when(chats.reserveEventSequence(chat, EventSequence.BLOCK)).thenReturn(2000L);
        assertThat(sequence.latest(chat, 7)).isEqualTo(7);

        long received = sequence.next(chat);
        sequence.published(chat, received);
        long ended = sequence.next(chat);

        // a connection opened now must still get the event numbered `ended`, sent after it opened
        assertThat(sequence.latest(chat, 0)).isEqualTo(received);
        sequence.published(chat, ended);
        assertThat(sequence.latest(chat, 0)).isEqualTo(ended);
        assertThat(sequence.latest(chat, ended + 5)).isEqualTo(ended + 5);
    }

    @Test
    void eachFrameStartsAFreshBlockAboveEveryNumberGivenBefore() {
        when(chats.reserveEventSequence(chat, EventSequence.BLOCK)).thenReturn(1000L, 7000L);
        sequence.freshBlock(chat);
        long first = sequence.next(chat);
        for (int i = 0; i < 10; i++) {
            sequence.next(chat);
        }

        // another node may have answered frames meanwhile: its numbers lie below 7000 - BLOCK
        sequence.freshBlock(chat);

        assertThat(first).isEqualTo(1);
        assertThat(sequence.next(chat)).isEqualTo(6001);
        verify(chats, times(2)).reserveEventSequence(chat, EventSequence.BLOCK);
    }

    @Test
    void aBlockAQuestionsWriteReservedGoesOnAfterTheQuestionsNumber() {
        when(chats.reserveEventSequence(chat, EventSequence.BLOCK)).thenReturn(9000L);
        // the question's write reserved 3001..4000 and the question took 3001
        sequence.blockStartedBy(chat, 3001);

        assertThat(sequence.hasNumberReady(chat)).isTrue();
        assertThat(sequence.next(chat)).isEqualTo(3002);
        for (long i = 3003; i <= 4000; i++) {
            assertThat(sequence.next(chat)).isEqualTo(i);
        }
        assertThat(sequence.next(chat)).isEqualTo(8001);
        verify(chats, times(1)).reserveEventSequence(chat, EventSequence.BLOCK);
    }

    @Test
    void aNumberIsReadyOnlyWhileTheChatsBlockHasOneLeft() {
        when(chats.reserveEventSequence(chat, EventSequence.BLOCK)).thenReturn(1000L, 2000L);
        assertThat(sequence.hasNumberReady(chat)).as("no block reserved yet").isFalse();

        sequence.freshBlock(chat);
        for (int i = 1; i < EventSequence.BLOCK; i++) {
            sequence.next(chat);
        }
        assertThat(sequence.hasNumberReady(chat)).isTrue();
        sequence.next(chat);

        assertThat(sequence.hasNumberReady(chat))
                .as("the next number needs a new block")
                .isFalse();
        verify(chats, times(1)).reserveEventSequence(chat, EventSequence.BLOCK);
    }
}
