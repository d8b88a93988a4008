from django.db import models


class Review(models.Model):
    title = models.CharField()
    product = models.ForeignKey("shop.Nope", on_delete=models.CASCADE)
    score = models.IntegerField(choices="12345")
