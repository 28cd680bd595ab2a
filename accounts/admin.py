from django.contrib import admin
from django.contrib.auth.admin import UserAdmin
from django.utils.translation import gettext_lazy as _

from .forms import AdminPlayerChangeForm, AdminPlayerCreationForm
from .models import User


@admin.register(User)
class PlayerAdmin(UserAdmin):
    form = AdminPlayerChangeForm
    add_form = AdminPlayerCreationForm
    list_display = ("username", "display_name", "email", "date_joined", "is_staff")
    search_fields = ("username", "display_name", "email")
    fieldsets = (*UserAdmin.fieldsets, (_("Player"), {"fields": ("display_name",)}))
