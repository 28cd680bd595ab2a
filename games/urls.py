from django.urls import path

from . import chat_views, history_views, views

urlpatterns = [
    path("", views.lobby, name="lobby"),
    path("tables/new/", views.table_create, name="table_create"),
    path("tables/<int:session_id>/", views.table, name="table"),
    path("tables/<int:session_id>/join/", views.seat_take, name="seat_take"),
    path("tables/<int:session_id>/leave/", views.seat_leave, name="seat_leave"),
    path("tables/<int:session_id>/computers/", views.computer_add, name="computer_add"),
    path("tables/<int:session_id>/computers/<int:position>/remove/", views.computer_remove, name="computer_remove"),
    path("tables/<int:session_id>/start/", views.session_start, name="session_start"),
    path("tables/<int:session_id>/play/", views.action_take, name="action_take"),
    path("tables/<int:session_id>/shuffle/", views.fair_contribute, name="fair_contribute"),
    path("tables/<int:session_id>/close/", views.table_close, name="table_close"),
    path("tables/<int:session_id>/leave-session/", views.session_leave, name="session_leave"),
    path("tables/<int:session_id>/take-back/", views.seat_reclaim, name="seat_reclaim"),
    path("tables/<int:session_id>/again/", views.session_rematch, name="session_rematch"),
    path("tables/<int:session_id>/again/decline/", views.rematch_decline, name="rematch_decline"),
    path("tables/<int:session_id>/chat/", chat_views.chat_post, name="chat_post"),
    path("tables/<int:session_id>/chat/switch/", chat_views.chat_switch, name="chat_switch"),
    path("tables/<int:session_id>/chat/mute/", chat_views.chat_mute, name="chat_mute"),
    path("sessions/<int:session_id>/", history_views.session_page, name="session"),
    path("sessions/<int:session_id>/export.json", history_views.session_export, name="session_export"),
    path("deals/<int:deal_id>/replay/", history_views.deal_replay, name="deal_replay"),
    path("deals/<int:deal_id>/export.json", history_views.deal_export, name="deal_export"),
    path("deals/<int:deal_id>/review/", history_views.deal_review, name="deal_review"),
    path("deals/verify/", history_views.deal_verify, name="deal_verify"),
    path("fair-play/", history_views.fair_play, name="fair_play"),
    path("players/<str:username>/", history_views.player_page, name="player"),
    path("leaderboard/", history_views.leaderboard, name="leaderboard"),
    path("rules/<str:game>/", views.rules, name="rules"),
]
