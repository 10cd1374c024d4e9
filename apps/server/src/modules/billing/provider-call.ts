import { HttpError } from "../../plugins/errors.ts";
import { ProviderError, ProviderUnavailableError } from "../../providers/errors.ts";
import { CardError } from "../../providers/payments/index.ts";

/** Major units (9.99) to integer minor units (999). */
export const toMinor = (major: number): number => Math.round(major * 100);
/** Integer minor units to major units, as the API shows money. */
export const toMajor = (minor: number): number => minor / 100;

/** A discount percent (0..100, two decimals) as hundredths of a percent. */
export const toBasisPoints = (percent: number): number => Math.round(percent * 100);

/** What a package charges: price x (1 - discount/100), rounded to the cent. */
export const discountedMinor = (priceMinor: number, discountBasisPoints: number): number =>
  Math.round((priceMinor * (10_000 - discountBasisPoints)) / 10_000);

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
