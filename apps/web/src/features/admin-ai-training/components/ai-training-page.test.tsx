import { configure, screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import {
  type AiTraining,
  type KnowledgeDocument,
  routes,
  type VoiceSample,
} from "@twinline/contracts";
import toast from "react-hot-toast";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { mockAdminApi, signInAdmin } from "@/test/admin";
import { on, type RouteMock } from "@/test/api-mock";
import { installFakeXhr } from "@/test/fake-xhr";
import { jsonResponse, renderApp } from "@/test/render";

configure({ asyncUtilTimeout: 5000 });
vi.setConfig({ testTimeout: 15_000 });

beforeEach(() => {
  installFakeXhr();
  Object.defineProperty(URL, "createObjectURL", {
    configurable: true,
    value: vi.fn(() => "blob:voice-sample"),
  });
  Object.defineProperty(URL, "revokeObjectURL", { configurable: true, value: vi.fn() });
});

afterEach(() => {
  toast.remove();
});

const guide: KnowledgeDocument = {
  _id: "d1",
  originalName: "fan-guide.pdf",
  size: 2_621_440,
  uploadDate: "2025-03-04T10:00:00.000Z",
  passages: 12,
};

const sample: VoiceSample = {
  filename: "abc.mp3",
  originalName: "voice.mp3",
  path: "/uploads/abc.mp3",
  size: 1_048_576,
  uploadDate: "2025-03-05T10:00:00.000Z",
  voiceId: null,
};

function training(patch: Partial<AiTraining> = {}): AiTraining {
  return {
    systemPrompt: "You are Nova.",
    knowledgeDocuments: [guide],
    voiceSample: null,
    voiceId: null,
    ...patch,
  };
}

function trainingApi(data: AiTraining, mocks: RouteMock[] = []) {
  return mockAdminApi([
    ...mocks,
    on(routes.aiTraining.read, () => jsonResponse({ success: true, data })),
    on(
      routes.aiTraining.voiceSampleAudio,
      () =>
        new Response("ID3", {
          headers: { "content-type": "audio/mpeg" },
        }),
    ),
  ]);
}

async function openPage(options: Parameters<typeof userEvent.setup>[0] = {}) {
  signInAdmin();
  renderApp("/admin/AITraining");
  await screen.findByRole("heading", { name: "Knowledge Documents" });
  return userEvent.setup(options);
}

function pdf(name = "faq.pdf", size?: number) {
  const file = new File(["%PDF-1.4 text"], name, { type: "application/pdf" });
  if (size !== undefined) Object.defineProperty(file, "size", { value: size });
  return file;
}

describe("AI Training", () => {
  it("loads with the admin token and lists documents with name, size and upload date", async () => {
    const api = trainingApi(training());
    await openPage();
    expect(screen.getByLabelText("System prompt")).toHaveValue("You are Nova.");
    const [row] = screen.getAllByTestId("knowledge-document");
    expect(row).toHaveTextContent("fan-guide.pdf");
    expect(row).toHaveTextContent("2.5 MB");
    expect(row).toHaveTextContent("Mar 4, 2025");
    expect(row).toHaveTextContent("12 passages");
    expect(api.callsTo(routes.aiTraining.read)[0]?.headers.get("authorization")).toBe(
      "Bearer admin-token",
    );
  });

  it("shows the empty list and the load error", async () => {
    trainingApi(training({ knowledgeDocuments: [] }));
    const first = renderApp("/admin/AITraining");
    signInAdmin();
    expect(await screen.findByText("No knowledge documents yet")).toBeInTheDocument();
    first.unmount();
    mockAdminApi([on(routes.aiTraining.read, () => jsonResponse({ success: false }, 500))]);
    renderApp("/admin/AITraining");
    expect(await screen.findByRole("alert")).toHaveTextContent("Failed to load AI Training data");
  });

  it("saves the system prompt with the admin token and shows the tick", async () => {
    const api = trainingApi(training(), [
      on(routes.aiTraining.systemPrompt, () =>
        jsonResponse({
          success: true,
          message: "System prompt updated",
          data: { ...training(), systemPrompt: "You are Nova, warm and brief." },
        }),
      ),
    ]);
    const user = await openPage();
    const prompt = screen.getByLabelText("System prompt");
    await user.clear(prompt);
    await user.type(prompt, "You are Nova, warm and brief.");
    await user.click(screen.getByRole("button", { name: "Save System Prompt" }));
    expect(await screen.findByText("System prompt updated")).toBeInTheDocument();
    expect(screen.getByRole("button", { name: "Saved" })).toBeInTheDocument();
    const [put] = api.callsTo(routes.aiTraining.systemPrompt);
    expect(put?.body).toEqual({ systemPrompt: "You are Nova, warm and brief." });
    expect(put?.headers.get("authorization")).toBe("Bearer admin-token");
  });

  it("uploads a PDF with a progress bar, then lists it", async () => {
    let answer: (response: Response) => void = () => {};
    const added: KnowledgeDocument = { ...guide, _id: "d2", originalName: "faq.pdf", passages: 3 };
    const api = trainingApi(training(), [
      on(
        routes.aiTraining.uploadDocument,
        () =>
          new Promise<Response>((resolve) => {
            answer = resolve;
          }),
      ),
    ]);
    const user = await openPage();
    await user.upload(screen.getByLabelText("Upload PDF"), pdf());
    const bar = await screen.findByRole("progressbar", { name: "Uploading faq.pdf" });
    await waitFor(() => expect(bar).toHaveAttribute("aria-valuenow", "50"));
    expect(screen.getByLabelText("Upload PDF")).toBeDisabled();
    const [call] = api.callsTo(routes.aiTraining.uploadDocument);
    expect(call?.headers.get("authorization")).toBe("Bearer admin-token");
    expect(call?.headers.get("csrf-token")).toBe("csrf-1");

    answer(jsonResponse({ success: true, message: "Document uploaded successfully", data: added }));
    expect(await screen.findByText("Document uploaded successfully")).toBeInTheDocument();
    expect(screen.queryByRole("progressbar")).not.toBeInTheDocument();
    expect(screen.getAllByTestId("knowledge-document").map((r) => r.textContent)).toEqual([
      expect.stringContaining("fan-guide.pdf"),
      expect.stringContaining("faq.pdf"),
    ]);
  });

  it("checks type and size on the client, and shows the server's reason for a refused PDF", async () => {
    const api = trainingApi(training(), [
      on(routes.aiTraining.uploadDocument, () =>
        jsonResponse({ success: false, message: "This PDF has no text to learn from" }, 400),
      ),
    ]);
    const user = await openPage({ applyAccept: false });
    const input = screen.getByLabelText("Upload PDF");
    await user.upload(input, new File(["x"], "notes.txt", { type: "text/plain" }));
    expect(await screen.findAllByText("Only PDF files are allowed")).not.toHaveLength(0);
    await user.upload(input, pdf("huge.pdf", 51 * 1024 * 1024));
    expect(
      await screen.findAllByText("File is too large. The maximum size is 50 MB"),
    ).not.toHaveLength(0);
    expect(api.callsTo(routes.aiTraining.uploadDocument)).toHaveLength(0);

    await user.upload(input, pdf("scan.pdf"));
    expect(
      await screen.findAllByText("Failed to upload scan.pdf: This PDF has no text to learn from"),
    ).not.toHaveLength(0);
  });

  it("deletes a document after confirming; a failure says so", async () => {
    let fail = true;
    const api = trainingApi(training(), [
      on(routes.aiTraining.deleteDocument, () =>
        fail
          ? jsonResponse({ success: false }, 500)
          : jsonResponse({ success: true, message: "Document deleted" }),
      ),
    ]);
    const user = await openPage();
    await user.click(screen.getByRole("button", { name: "Delete fan-guide.pdf" }));
    let dialog = await screen.findByRole("alertdialog", { name: "Delete document?" });
    await user.click(within(dialog).getByRole("button", { name: "Delete" }));
    expect(await screen.findByText("Failed to delete document")).toBeInTheDocument();

    fail = false;
    await user.keyboard("{Escape}");
    const opener = screen.getByRole("button", { name: "Delete fan-guide.pdf" });
    await waitFor(() => expect(opener).toHaveFocus());
    await user.click(opener);
    dialog = await screen.findByRole("alertdialog");
    await user.click(within(dialog).getByRole("button", { name: "Delete" }));
    expect(await screen.findByText("No knowledge documents yet")).toBeInTheDocument();
    expect(api.callsTo(routes.aiTraining.deleteDocument, { id: "d1" })).toHaveLength(2);
    // Its Delete button went with the row: focus goes to the nearest control, not the page top.
    await waitFor(() => expect(screen.getByLabelText("Upload PDF")).toHaveFocus());
  });

  it("uploads a voice sample with progress and plays the stored one", async () => {
    const api = trainingApi(training({ voiceSample: sample }), [
      on(routes.aiTraining.uploadVoiceSample, () =>
        jsonResponse({
          success: true,
          message: "Voice sample uploaded successfully",
          data: { ...sample, originalName: "new-take.wav", filename: "def.wav" },
        }),
      ),
    ]);
    const user = await openPage({ applyAccept: false });
    expect(screen.getByTestId("voice-sample")).toHaveTextContent("voice.mp3");
    const player = await screen.findByLabelText("Play voice.mp3");
    expect(player).toHaveAttribute("src", "blob:voice-sample");
    expect(api.callsTo(routes.aiTraining.voiceSampleAudio)[0]?.headers.get("authorization")).toBe(
      "Bearer admin-token",
    );

    const input = screen.getByLabelText("Replace Sample");
    await user.upload(input, new File(["x"], "notes.txt", { type: "text/plain" }));
    expect(
      await screen.findAllByText("Only MP3, WAV or WebM audio files are allowed"),
    ).not.toHaveLength(0);
    const big = new File(["x"], "long.wav", { type: "audio/wav" });
    Object.defineProperty(big, "size", { value: 101 * 1024 * 1024 });
    await user.upload(input, big);
    expect(
      await screen.findAllByText("File is too large. The maximum size is 100 MB"),
    ).not.toHaveLength(0);
    expect(api.callsTo(routes.aiTraining.uploadVoiceSample)).toHaveLength(0);

    await user.upload(input, new File(["RIFF"], "new-take.wav", { type: "audio/wav" }));
    expect(await screen.findByText("Voice sample uploaded successfully")).toBeInTheDocument();
    expect(screen.getByTestId("voice-sample")).toHaveTextContent("new-take.wav");
  });

  it("switches the voice id between display and edit mode", async () => {
    let fail = true;
    const api = trainingApi(training(), [
      on(routes.aiTraining.voiceId, ({ body }) =>
        fail
          ? jsonResponse({ success: false }, 500)
          : jsonResponse({
              success: true,
              message: "Voice ID updated",
              data: { voiceId: (body as { voiceId: string }).voiceId || null },
            }),
      ),
    ]);
    const user = await openPage();
    expect(screen.getByTestId("voice-id")).toHaveTextContent("No voice ID set");
    await user.click(screen.getByRole("button", { name: "Set Voice ID" }));
    const input = screen.getByRole("textbox", { name: "Voice ID" });
    expect(input).toHaveFocus();
    await user.type(input, "bad id!");
    await user.click(screen.getByRole("button", { name: "Save Voice ID" }));
    expect(screen.getByText("Voice ID may hold only letters, digits, - and _")).toBeInTheDocument();
    await user.clear(input);
    await user.type(input, "voice_123");
    await user.click(screen.getByRole("button", { name: "Save Voice ID" }));
    expect(await screen.findByText("Failed to update voice ID")).toBeInTheDocument();
    expect(screen.getByRole("textbox", { name: "Voice ID" })).toHaveValue("voice_123");

    fail = false;
    await user.click(screen.getByRole("button", { name: "Save Voice ID" }));
    expect(await screen.findByTestId("voice-id")).toHaveTextContent("voice_123");
    expect(api.callsTo(routes.aiTraining.voiceId).at(-1)?.body).toEqual({
      voiceId: "voice_123",
    });

    // Cancel leaves the stored id as it was.
    await user.click(screen.getByRole("button", { name: "Edit Voice ID" }));
    await user.clear(screen.getByRole("textbox", { name: "Voice ID" }));
    await user.click(screen.getByRole("button", { name: "Cancel" }));
    expect(screen.getByTestId("voice-id")).toHaveTextContent("voice_123");

    // Emptied and saved: cleared.
    await user.click(screen.getByRole("button", { name: "Edit Voice ID" }));
    await user.clear(screen.getByRole("textbox", { name: "Voice ID" }));
    await user.click(screen.getByRole("button", { name: "Save Voice ID" }));
    expect(await screen.findByTestId("voice-id")).toHaveTextContent("No voice ID set");
    expect(api.callsTo(routes.aiTraining.voiceId).at(-1)?.body).toEqual({ voiceId: "" });
  });

  it("needs a voice sample before generating a clone", async () => {
    const api = trainingApi(training());
    const user = await openPage();
    await user.type(screen.getByLabelText("Voice Name"), "Nova");
    await user.click(screen.getByRole("button", { name: "Generate Voice Clone" }));
    expect(await screen.findByRole("alert")).toHaveTextContent(
      "Please upload a voice sample first",
    );
    // Once: not a toast as well (issue 24).
    expect(screen.getAllByText("Please upload a voice sample first")).toHaveLength(1);
    expect(api.callsTo(routes.aiTraining.generateVoiceClone)).toHaveLength(0);
  });

  it("generates a clone from the stored sample and shows the new voice id", async () => {
    const api = trainingApi(training({ voiceSample: sample }), [
      on(routes.aiTraining.generateVoiceClone, () =>
        jsonResponse({ success: true, message: "Voice clone created", data: { voiceId: "vc-9" } }),
      ),
    ]);
    const user = await openPage();
    await user.click(screen.getByRole("button", { name: "Generate Voice Clone" }));
    expect(await screen.findByText("Voice name is required")).toBeInTheDocument();
    await user.type(screen.getByLabelText("Voice Name"), "Nova");
    await user.click(screen.getByRole("button", { name: "Generate Voice Clone" }));
    expect(await screen.findByText("Voice clone created")).toBeInTheDocument();
    expect(screen.getByTestId("voice-id")).toHaveTextContent("vc-9");
    const [call] = api.callsTo(routes.aiTraining.generateVoiceClone);
    expect(call?.body).toEqual({ name: "Nova", description: "" });
    expect(call?.headers.get("authorization")).toBe("Bearer admin-token");
  });
});
