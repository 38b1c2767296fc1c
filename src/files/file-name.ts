/**
 * The bidirectional controls (U+202A–U+202E embeddings and overrides, U+2066–U+2069 isolates, the
 * marks U+200E, U+200F and U+061C): in a file's name they make a browser or a mail client draw
 * `invoice\u202Etxt.exe` as `invoiceexe.txt`. Compiled once: every upload and download runs it.
 */
const BIDI_CONTROLS = /[\u061C\u200E\u200F\u202A-\u202E\u2066-\u2069]/g;

/**
 * A file's name as it is stored and sent: without bidirectional controls. They are removed, not
 * refused: a name comes from the uploader's file system, where such marks are invisible (and put
 * there by copying right-to-left text), so a refusal would name a character the user cannot find;
 * removing them changes how the name is drawn, never its letters (docs/files-and-models.md).
 */
export function withoutBidiControls(name: string): string {
  return name.replace(BIDI_CONTROLS, '');
}
