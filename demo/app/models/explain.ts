/**
 * A language backend's failure in plain words, for a student: what went wrong and what to do. The typed errors
 * of src/llm are told apart by their stable `code` (the page adds what stays in use).
 */

/**
 * Plain words for an error of WebLlmBackend, WllamaBackend or OpenAiBackend (the library's message follows in brackets).
 * `what` names the model or server; `server` is true for the OpenAI-compatible backend.
 */
export function explainModelError(e: unknown, what: string, server = false): string {
  const err = e instanceof Error ? e : new Error(String(e));
  const detail = ` (${err.message})`;
  switch ((err as Error & { code?: unknown }).code) {
    case 'LLM_MODEL_UNSUPPORTED':
      return /shader-f16/.test(err.message)
        ? `${what} cannot run on this graphics adapter: it computes with 16-bit numbers (an “f16” build) and ` +
            `the adapter lacks shader-f16. Choose a build whose name contains “f32”. Nothing was downloaded.`
        : `${what} cannot run here${detail}.`;
    case 'LLM_BACKEND_UNAVAILABLE':
      if (server) return `${what} cannot be reached: is the server running on that address?${detail}`;
      if (/wllama|WebAssembly|storage/i.test(err.message))
        return `The processor engine (wllama) cannot run in this browser${detail}.`;
      return `No language model can run in this page: the browser offers no usable WebGPU adapter${detail}.`;
    case 'LLM_MODEL_LOAD_FAILED':
      return /fetch|network|NetworkError|404|Not Found/i.test(err.message)
        ? `${what} could not be downloaded: the model's files could not be fetched (no network connection, or ` +
            `the model host cannot be reached)${detail}.`
        : `${what} could not be loaded${detail}.`;
    case 'LLM_ABORTED':
      return `The download of ${what} was stopped by you.`;
    case 'LLM_TIMEOUT':
      return `${what} took too long to answer, so the lab gave up${detail}.`;
    case 'LLM_WORKER_CRASHED':
    case 'LLM_DEVICE_LOST':
      return `The model's background worker or the graphics device failed${detail}.`;
    case 'LLM_PRIVACY':
      return (
        `Refused: ${(err as Error & { url?: string }).url ?? 'that address'} is not on this computer, so the ` +
        `dialogue text would leave your machine. The lab only talks to a server on this computer (127.0.0.1, ` +
        `localhost, [::1]) unless you tick “Allow a server on another computer”.`
      );
    case 'LLM_INVALID_REQUEST':
      return `That server address is not usable${detail}.`;
    case 'LLM_HTTP_ERROR':
      return `The server answered with an error${detail}.`;
    default:
      return `${what} failed: ${err.message}.`;
  }
}
