/// The console page's inline style and script: nothing is fetched from elsewhere.
enum ConsoleAssets {
    /// Readable at a laptop's width and at a phone's (390 px): the page never scrolls sideways; a wide table scrolls
    /// in its own box.
    static let style = """
        :root { color-scheme: light dark; font-family: system-ui, sans-serif; }
        body { margin: 0 auto; padding: 0 12px 24px; max-width: 72rem; line-height: 1.4; }
        h1 { font-size: 1.4rem; margin: 8px 0; }
        h2 { font-size: 1.15rem; margin-top: 1.5rem; }
        h3 { font-size: 1rem; }
        header { position: sticky; top: 0; background: Canvas; padding: 4px 0; border-bottom: 1px solid #8886; }
        p, li { overflow-wrap: anywhere; }
        .scroll { overflow-x: auto; max-width: 100%; }
        table { border-collapse: collapse; font-size: 0.9rem; }
        th, td { border-bottom: 1px solid #8884; padding: 4px 8px; text-align: left; vertical-align: top; }
        button { font: inherit; padding: 4px 10px; cursor: pointer; }
        .actions { display: flex; flex-wrap: wrap; gap: 6px; }
        #note { font-weight: bold; }
        """

    /// A click on a button with `data-path` sends `POST data-path` (with `data-body` as JSON, and `data-customer` as
    /// the `X-Mock-Customer` header), says what the store answered, then reads the page again and shows its
    /// `<main id="store">`. Words from the store are set as text, never as markup.
    static let script = """
        "use strict";
        const note = document.getElementById("note");
        async function showAgain() {
          const answer = await fetch(location.pathname, { cache: "no-store" });
          const page = new DOMParser().parseFromString(await answer.text(), "text/html");
          document.getElementById("store").replaceWith(page.getElementById("store"));
        }
        async function act(button) {
          const headers = {};
          if (button.dataset.customer) headers["X-Mock-Customer"] = button.dataset.customer;
          let body;
          if (button.dataset.body) { body = button.dataset.body; headers["Content-Type"] = "application/json"; }
          const answer = await fetch(button.dataset.path, { method: "POST", headers, body });
          if (answer.ok) return "Done: " + button.textContent + ".";
          const text = await answer.text();
          let words = text;
          try { words = JSON.parse(text).errorMessage || text; } catch (error) {}
          return "The store said no (" + answer.status + "): " + words;
        }
        document.addEventListener("click", async (event) => {
          const button = event.target.closest("button");
          if (!button) return;
          document.querySelectorAll("button").forEach((each) => { each.disabled = true; });
          note.textContent = "Working…";
          try {
            note.textContent = button.id === "reload" ? "" : await act(button);
            await showAgain();
          } catch (error) {
            note.textContent = "Could not reach the store: " + error.message;
          }
          document.querySelectorAll("button").forEach((each) => { each.disabled = false; });
        });
        """
}
