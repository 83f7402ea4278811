"""Forms of the catalog: input shape only; the services check the rest."""

from __future__ import annotations

from django import forms
from django.conf import settings
from django.template.defaultfilters import filesizeformat

from .games import default_game


class ImportUploadForm(forms.Form):
    """The admin's "Import card set" form."""

    MODE_DRY_RUN = "dry_run"
    MODE_APPLY = "apply"

    file = forms.FileField(
        help_text="One set file, .json or .csv, in the import format (data/README.md).",
        widget=forms.ClearableFileInput(attrs={"accept": ".json,.csv,application/json,text/csv"}),
    )
    mode = forms.ChoiceField(
        choices=[
            (MODE_DRY_RUN, "Dry run: show what would change, write nothing"),
            (MODE_APPLY, "Apply: write the changes to the catalog"),
        ],
        initial=MODE_DRY_RUN,
        widget=forms.RadioSelect,
    )
    errata_effective_date = forms.DateField(
        required=False,
        label="Errata effective date",
        help_text="YYYY-MM-DD. Empty: the release date of the set in the file.",
        widget=forms.DateInput(attrs={"type": "date"}),
    )

    def __init__(self, *args: object, **kwargs: object) -> None:
        super().__init__(*args, **kwargs)  # type: ignore[arg-type]
        self.fields["file"].help_text += (
            f" Its game is the JSON file's \"game\" (a CSV row's game column), {default_game().name} when absent."
            f" At most {filesizeformat(settings.IMPORT_MAX_BYTES)}."
        )

    @property
    def dry_run(self) -> bool:
        return self.cleaned_data["mode"] == self.MODE_DRY_RUN
