import { HttpError } from "../../plugins/errors.ts";
import { ProviderError, ProviderUnavailableError } from "../../providers/errors.ts";
import { CardError } from "../../providers/payments/index.ts";

/** A provider's failure as an answer: 502 with the provider's words. */
export async function providerCall<T>(run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (error) {
    if (error instanceof ProviderUnavailableError) throw new HttpError(400, error.message);
    // A declined card is the buyer's to fix, in the provider's words.
    if (error instanceof ProviderError && error.status === 402) {
      throw new HttpError(402, error.message);
    }
    if (error instanceof CardError) throw new HttpError(402, error.message);
    if (error instanceof ProviderError) {
      throw new HttpError(502, `${error.provider}: ${error.message}`);
    }
    throw error;
  }
}
