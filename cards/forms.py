"""Forms of the catalog: input shape only; the services check the rest."""

from __future__ import annotations

from django import forms
from django.conf import settings
from django.template.defaultfilters import filesizeformat
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from .games import default_game
from .names import label_text


class ImportUploadForm(forms.Form):
    """The admin's "Import card set" form."""

    MODE_DRY_RUN = "dry_run"
    MODE_APPLY = "apply"

    file = forms.FileField(
        label=_("File"),
        help_text=_("One set file, .json or .csv, in the import format (data/README.md)."),
        widget=forms.ClearableFileInput(attrs={"accept": ".json,.csv,application/json,text/csv"}),
    )
    mode = forms.ChoiceField(
        choices=[
            (MODE_DRY_RUN, _("Dry run: show what would change, write nothing")),
            (MODE_APPLY, _("Apply: write the changes to the catalog")),
        ],
        label=_("Mode"),
        initial=MODE_DRY_RUN,
        widget=forms.RadioSelect,
    )
    errata_effective_date = forms.DateField(
        required=False,
        label=_("Errata effective date"),
        help_text=_("YYYY-MM-DD. Empty: the release date of the set in the file."),
        widget=forms.DateInput(attrs={"type": "date"}),
    )

    def __init__(self, *args: object, **kwargs: object) -> None:
        super().__init__(*args, **kwargs)  # type: ignore[arg-type]
        # Two sentences, joined as the language joins them (no space between Japanese sentences).
        more = gettext(
            "Its game is the JSON file's \"game\" (a CSV row's game column), %(game)s when absent. At most %(size)s."
        ) % {"game": label_text(default_game().name), "size": filesizeformat(settings.IMPORT_MAX_BYTES)}
        file = self.fields["file"]
        file.help_text = gettext("%(first)s %(second)s") % {"first": file.help_text, "second": more}

    @property
    def dry_run(self) -> bool:
        return self.cleaned_data["mode"] == self.MODE_DRY_RUN
