"""Invoice tools of the `invoices` package (the spec's complete example)."""
from apollia import tool


@tool
def extract_totals(path: str) -> dict:
    """Extract the total, the due date and the supplier of an invoice."""
    from pypdf import PdfReader

    text = "\n".join(page.extract_text() or "" for page in PdfReader(path).pages)
    return {"text": text[:2000]}
