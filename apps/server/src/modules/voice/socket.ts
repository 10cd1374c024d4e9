import { AsyncResource } from "node:async_hooks";
import {
  VOICE_CLOSE_CODES,
  VOICE_MAX_UTTERANCE_BYTES,
  VOICE_MESSAGES,
  VOICE_MIN_UTTERANCE_BYTES,
  type VoiceServerMessage,
  voiceClientMessageSchema,
  voiceSocketAddress,
} from "@twinline/contracts";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import type { WebSocket } from "ws";
import { z } from "zod";
import { HttpError } from "../../plugins/errors.ts";
import type { CallSocket, LiveCall, VoiceService } from "./service.ts";

/** Where the live call's socket listens (an address of the route table, not a route of it). */
export const VOICE_SOCKET_PATH = voiceSocketAddress.path;

const querySchema = z.object({
  token: z.string().max(4096).optional(),
  /** Accepted as the spec's client sends it; the token in the query is what authenticates. */
  csrf: z.string().max(4096).optional(),
  /** A reconnection: resume this live call of the user (the same call and minute), never start one. */
  resume: z.string().max(64).optional(),
});

function channelOf(socket: WebSocket): CallSocket {
  const open = () => socket.readyState === socket.OPEN;
  return {
    sendJson(message: VoiceServerMessage) {
      if (open()) socket.send(JSON.stringify(message));
    },
    sendAudio(audio: Buffer) {
      if (open()) socket.send(audio, { binary: true });
    },
    close(code: number) {
      if (open()) socket.close(code);
    },
  };
}

type Frame = { data: Buffer; isBinary: boolean };

function toBuffer(data: unknown): Buffer {
  if (Buffer.isBuffer(data)) return data;
  if (Array.isArray(data)) return Buffer.concat(data as Buffer[]);
  return Buffer.from(data as ArrayBuffer);
}

/**
 * The live call's socket (docs/decisions/0021-voice-call.md): authenticated by the session token
 * in the query exactly as requireUser checks a Bearer header (a deactivated account or an ended
 * token is refused), one live call per user (another socket is refused, 4409), then binary utterances
 * in and the reply's JSON messages and audio out.
 */
export const voiceSocketRoutes: FastifyPluginAsyncZod<{ voice: VoiceService }> = async (
  app,
  { voice },
) => {
  app.get(
    VOICE_SOCKET_PATH,
    {
      websocket: true,
      schema: {
        tags: ["voice"],
        summary:
          "The live voice call (WebSocket): binary utterances in; transcription, response, " +
          "audio_start, binary audio, audio_complete, error, credit_warning, call_ended out",
        querystring: querySchema,
      },
    },
    (socket, request) => {
      const channel = channelOf(socket);
      const early: Frame[] = [];
      let call: LiveCall | undefined;
      let socketClosed = false;
      /** Set by a `candidate` message: the next binary frame is that candidate's audio. */
      let candidateId: string | undefined;

      const refuse = (message: string, code: number) => {
        channel.sendJson({ type: "error", message });
        channel.close(code);
      };

      const handle = ({ data, isBinary }: Frame) => {
        if (!call) return;
        if (isBinary) {
          const id = candidateId;
          candidateId = undefined;
          if (data.length <= VOICE_MIN_UTTERANCE_BYTES) return;
          if (data.length > VOICE_MAX_UTTERANCE_BYTES) {
            channel.sendJson({ type: "error", message: VOICE_MESSAGES.processFailed });
            return;
          }
          if (id === undefined) call.conversation.utterance(data);
          else call.conversation.candidate(id, data);
          return;
        }
        let parsed: ReturnType<typeof voiceClientMessageSchema.safeParse>;
        try {
          parsed = voiceClientMessageSchema.safeParse(JSON.parse(data.toString("utf8")));
        } catch {
          parsed = voiceClientMessageSchema.safeParse(undefined);
        }
        if (!parsed.success) return;
        const message = parsed.data;
        if (message.type === "interrupt") call.conversation.interrupt();
        else if (message.type === "candidate") candidateId = message.candidateId;
        else if (message.type === "commit") call.conversation.commit(message.candidateId);
        else if (message.type === "cancel") call.conversation.cancel(message.candidateId);
        else void call.end("hangup", { message: VOICE_MESSAGES.callEnded, reason: "hangup" });
      };

      // Bound to the socket's request: a call's provider calls are spans of its trace.
      socket.on(
        "message",
        AsyncResource.bind((data: WebSocket.RawData, isBinary: boolean) => {
          const frame = { data: toBuffer(data), isBinary };
          if (call) handle(frame);
          else early.push(frame);
        }),
      );
      socket.on("close", (code) => {
        socketClosed = true;
        if (!call) return;
        // A normal close is the user's hang-up; anything else a dropped connection, which the
        // user may take up again within the grace (the same call and minute).
        if (code === VOICE_CLOSE_CODES.normal) void call.end("hangup");
        else call.drop(channel);
      });
      socket.on("error", (error) => request.log.warn({ err: error }, "Voice socket error"));

      void (async () => {
        let user: Awaited<ReturnType<typeof app.authenticateToken>>;
        const token = request.query.token;
        let jti: string | undefined;
        try {
          user = await app.authenticateToken(token);
          jti = (await app.tokens.verify(token ?? ""))?.jti;
        } catch (error) {
          const message = error instanceof HttpError ? error.message : VOICE_MESSAGES.unauthorized;
          return refuse(message, VOICE_CLOSE_CODES.unauthorized);
        }
        if (!token || !jti)
          return refuse(VOICE_MESSAGES.unauthorized, VOICE_CLOSE_CODES.unauthorized);
        const outcome = await voice.open(user, channel, { token, jti }, request.query.resume);
        if (outcome.kind === "refused") return refuse(outcome.message, outcome.code);
        call = outcome.call;
        if (socketClosed) {
          call.drop(channel);
          return;
        }
        for (const frame of early.splice(0)) handle(frame);
      })().catch((error: unknown) => {
        request.log.error({ err: error }, "Voice call failed to start");
        refuse(VOICE_MESSAGES.connectionError, 1011);
      });
    },
  );
};
