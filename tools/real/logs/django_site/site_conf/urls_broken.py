from django.urls import path

from shop import views

urlpatterns = [
    path("/index/", views.index),
    path("product/<int:pk>", views.product, name="product"),
    path("product/<int:pk>", views.product, name="product"),
]
