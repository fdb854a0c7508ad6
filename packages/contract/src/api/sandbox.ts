/** The sandbox payment provider's hosted pages and its clock (only when PAYMENT_PROVIDER is the sandbox). */
export const sandboxEndpoints = {};
