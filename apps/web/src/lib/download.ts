/** Saves text as a file through the browser's download (a Blob URL, released afterwards). */
export function downloadText(fileName: string, content: string): void {
  const url = URL.createObjectURL(
    new Blob([content.endsWith('\n') ? content : `${content}\n`], { type: 'text/plain' }),
  );
  const link = document.createElement('a');
  link.href = url;
  link.download = fileName;
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}
